import Testing
@testable import Radio

/// The radio's two questions about a station failure, in one table: is the station down
/// (a list fetch falls back to downloads), and does the outbox keep the report. Every case
/// of ``ServiceFailure`` is in it, the statuses on both sides of 500 included.
struct ServiceFailureClassificationTests {
    /// A failure with the two answers the radio must give it.
    struct Row: Sendable, CustomTestStringConvertible {
        let failure: ServiceFailure
        let stationIsDown: Bool
        let keepsReport: Bool

        var testDescription: String { "\(failure)" }
    }

    static let table: [Row] = [
        Row(failure: .unreachable("Connection refused"), stationIsDown: true, keepsReport: true),
        Row(failure: .busy(408), stationIsDown: true, keepsReport: true),
        Row(failure: .busy(429), stationIsDown: true, keepsReport: true),
        Row(failure: .busy(503), stationIsDown: true, keepsReport: true),
        Row(failure: .httpStatus(500), stationIsDown: true, keepsReport: false),
        Row(failure: .httpStatus(501), stationIsDown: true, keepsReport: false),
        Row(failure: .httpStatus(499), stationIsDown: false, keepsReport: false),
        Row(failure: .httpStatus(404), stationIsDown: false, keepsReport: false),
        Row(failure: .httpStatus(403), stationIsDown: false, keepsReport: false),
        Row(failure: .untrusted("self-signed certificate"), stationIsDown: false, keepsReport: true),
        Row(failure: .malformed("not JSON: <html>"), stationIsDown: false, keepsReport: false),
        Row(failure: .rejected("wrong_version"), stationIsDown: false, keepsReport: false),
        Row(failure: .expired, stationIsDown: false, keepsReport: false),
        Row(failure: .needsLogin(channel: "-3"), stationIsDown: false, keepsReport: false),
    ]

    /// The case's name. The switch has no default: a new case does not compile until it is
    /// named here, beside the set of names ``everyCaseIsInTheTable()`` wants rows for.
    static func name(_ failure: ServiceFailure) -> String {
        switch failure {
        case .unreachable: "unreachable"
        case .httpStatus: "httpStatus"
        case .busy: "busy"
        case .untrusted: "untrusted"
        case .malformed: "malformed"
        case .rejected: "rejected"
        case .expired: "expired"
        case .needsLogin: "needsLogin"
        }
    }

    @Test(arguments: table)
    func bothAnswers(_ row: Row) {
        #expect(row.failure.isStationDown == row.stationIsDown)
        #expect(row.failure.keepsReport == row.keepsReport)
    }

    /// The report rule, for any status the station may answer: a report is kept exactly
    /// when the status says "not now" (408, 429, 502, 503, 504), and any other status is
    /// the station's word on it; the station is down for "not now" and every 5xx.
    @Test func aStatusIsNamedByTheOneRuleOfNotNow() {
        for status in 100...999 {
            let failure = ServiceFailure(status: status)
            let notNow = [408, 429, 502, 503, 504].contains(status)
            #expect(failure == (notNow ? .busy(status) : .httpStatus(status)), "\(status)")
            #expect(failure.keepsReport == notNow, "\(status)")
            #expect(failure.isStationDown == (notNow || (500...599).contains(status)), "\(status)")
        }
    }

    @Test func everyCaseIsInTheTable() {
        #expect(Set(Self.table.map { Self.name($0.failure) })
                == ["unreachable", "httpStatus", "busy", "untrusted", "malformed", "rejected", "expired", "needsLogin"])
    }
}
