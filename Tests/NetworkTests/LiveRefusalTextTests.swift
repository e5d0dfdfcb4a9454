import Radio
import Testing
@testable import mhz

/// The line `mhz --live` exits with when the station refuses the channel: it stops there,
/// so its advice is the command line's (try again), never the radio's (retrying).
struct LiveRefusalTextTests {
    @Test func aChannelTheStationDoesNotBroadcastNamesThePublicOnes() {
        #expect(PlayCommand.refusalText("0", .httpStatus(404), server: "the embedded station")
                == "the embedded station has no live broadcast of channel 0: it broadcasts its public channels only "
                    + "(`mhz channels` lists them; not 0 nor -3)")
    }

    @Test func aFailingStationIsWordedForOneCommandNotForTheRadio() {
        #expect(PlayCommand.refusalText("3", .unreachable("Connection refused"), server: "http://127.0.0.1:9")
                == "cannot listen to channel 3 live: http://127.0.0.1:9 unreachable (Connection refused): "
                    + "check --server and your network, then try again")
        #expect(PlayCommand.refusalText("3", .busy(503), server: "http://127.0.0.1:9")
                == "cannot listen to channel 3 live: http://127.0.0.1:9 is busy (HTTP 503): wait a moment, then try again")
        for failure in [ServiceFailure.unreachable("x"), .busy(503), .busy(408), .httpStatus(500), .rejected("x")] {
            #expect(!PlayCommand.refusalText("3", failure, server: "s").contains("retrying"), "\(failure)")
        }
    }
}
