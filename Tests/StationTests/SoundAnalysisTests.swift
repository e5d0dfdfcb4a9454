import Foundation
import MusicLibrary
import SoundFeatures
@testable import Station
import Testing
import TestSupport

/// The station hears: after its scan it measures its tracks' sound in the background and
/// answers all the while; the sound table it serves fills as the analysis finishes.
@Suite("Station sound analysis")
struct SoundAnalysisTests {
    @Test("lists are answered while the analysis runs; the sound of every track is served once it finishes")
    func answersWhileAnalysing() async throws {
        let gate = AnalysisGate()
        let music = try await StationFixtures.sharedTaggedLibrary
        try await StationFixtures.withDemoStation(library: music, adjust: {
            $0.analysesSound = true
            $0.soundAnalysisGate = gate
        }) { station, base in
            // A worker stands at the gate before its first file: the analysis is under way.
            await gate.arrival()
            #expect(station.servedSound.analysedCount == 0)
            let answer = try await HTTPFetch.get(base, "/j/app/radio/people?app_name=radio_android&version=100&channel=0&type=n")
            #expect(answer.status == 200)
            let songs = try #require(try answer.jsonObject()["song"] as? [[String: Any]])
            #expect(songs.count == 5)
            #expect(station.servedSound.analysedCount == 0, "a file was measured before the gate opened")

            gate.open()
            await station.soundAnalysisIdle()
            let tracks = station.servedLibrary.tracks.count
            #expect(tracks == StationFixtures.taggedFiles.count)
            #expect(station.servedSound.trackCount == tracks && station.servedSound.analysedCount == tracks)
        }
    }

    @Test("a rescan that changes nothing keeps the sound served; the station can be told not to analyse")
    func rescanKeepsSound() async throws {
        let music = try await StationFixtures.sharedTaggedLibrary
        try await StationFixtures.withDemoStation(library: music, adjust: { $0.analysesSound = true }) { station, _ in
            await station.soundAnalysisIdle()
            let before = station.servedSound
            #expect(before.analysedCount == StationFixtures.taggedFiles.count)
            let summary = try await station.rescan()
            #expect(summary.read == 0)
            let after = station.servedSound
            #expect(after.analysedCount == before.analysedCount)
            for position in 0..<after.trackCount { #expect(after.vector(at: position) == before.vector(at: position)) }
        }
        try await StationFixtures.withDemoStation(library: music) { station, _ in
            await station.soundAnalysisIdle()
            #expect(station.servedSound.analysedCount == 0)
        }
    }
}
