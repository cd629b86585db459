import Foundation
import LoupeFuzzing
import TestSupport
import Testing

/// The fuzzing of issue #14 (`Tools/fuzz.sh`), replayed: every input committed under `Fixtures/fuzz/<target>/` (the
/// findings, and a minimized sample of each target's corpus) goes through the same body as under libFuzzer and must
/// end with an answer or a typed `IndexError`, never a trap or a broken property.
@Suite struct FuzzRegressionTests {
    @Test(arguments: FuzzTarget.allCases)
    func committedInputsAnswerOrThrow(_ target: FuzzTarget) throws {
        let folder = FixturePaths.loupeTestFixtures + "/fuzz/" + target.rawValue
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(!names.isEmpty, "no inputs in \(folder)")
        for name in names {
            let input = try #require(FileManager.default.contents(atPath: folder + "/" + name))
            if case .failed(let problem) = target.run(Array(input)) {
                Issue.record("\(target.rawValue)/\(name): \(problem)")
            }
        }
    }

    /// The seeds the fuzzer starts from reach past the parsers: the valid segment file opens and answers, and at
    /// least one seed of each text format is accepted.
    @Test(arguments: FuzzTarget.allCases)
    func seedsAreAccepted(_ target: FuzzTarget) {
        let answered = target.seeds.filter { if case .answered = target.run($0) { true } else { false } }
        #expect(!answered.isEmpty, "\(target.rawValue): no seed is accepted")
        if target.rawValue.hasPrefix("segment-") {
            #expect(answered.count == target.seeds.count, "\(target.rawValue): the valid file is refused")
        }
    }
}
