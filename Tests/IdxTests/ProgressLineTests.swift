import IdxKit
import Testing

@Suite struct ProgressLineTests {
    @Test func redrawsAtMostTwiceASecond() {
        let output = CapturedOutput(isTerminal: true)
        let start = ContinuousClock.now
        var line = ProgressLine(output: output, start: start)

        line.update(documents: 10, bytes: 1_000, now: start + .milliseconds(100))
        #expect(output.text.isEmpty)
        line.update(documents: 1_000, bytes: 2_000_000, now: start + .seconds(1))
        #expect(output.text == "\r1000 docs  1000 docs/s  2.0 MB/s")
        line.update(documents: 1_100, bytes: 2_100_000, now: start + .milliseconds(1_400))
        #expect(output.text == "\r1000 docs  1000 docs/s  2.0 MB/s", "too soon after the last draw")
        line.update(documents: 3_000, bytes: 3_000_000, now: start + .seconds(2))
        #expect(output.text.hasSuffix("\r3000 docs  1500 docs/s  1.5 MB/s"))

        line.clear()
        #expect(output.text.hasSuffix("\r" + String(repeating: " ", count: 32) + "\r"))
    }

    @Test func silentWhenNotATerminal() {
        let output = CapturedOutput(isTerminal: false)
        let start = ContinuousClock.now
        var line = ProgressLine(output: output, start: start)
        line.update(documents: 1_000, bytes: 2_000_000, now: start + .seconds(5))
        line.clear()
        #expect(output.text.isEmpty)
    }

    @Test func text() {
        #expect(
            ProgressLine.text(documents: 12_000, bytes: 9_000_000, elapsed: .seconds(2))
                == "12000 docs  6000 docs/s  4.5 MB/s")
        #expect(ProgressLine.text(documents: 0, bytes: 0, elapsed: .zero) == "0 docs  0 docs/s  0.0 MB/s")
    }
}
