/// Why a track's sound was not measured. Facts only: the station decides what is logged.
package enum SoundAnalysisError: Error, Sendable, Equatable {
    /// The file cannot be read as sound (FFmpeg cannot open or decode it, or it holds no
    /// audio): `reason` says why. Recorded, so the file is not tried again until it changes.
    case unreadable(reason: String)
    /// FFmpeg's libraries or aubio cannot be loaded, or aubio refused to set up its
    /// analysis: nothing can be analysed on this machine now. Not recorded against any file.
    case unavailable(reason: String)
    /// The analysis was stopped (the station is stopping) before the file was done.
    case stopped
}
