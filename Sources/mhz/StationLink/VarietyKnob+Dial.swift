import StationLink
import TerminalUI

/// The variety keys of the terminal UI turn the knob playlist requests carry.
extension VarietyKnob: VarietyDial {}
