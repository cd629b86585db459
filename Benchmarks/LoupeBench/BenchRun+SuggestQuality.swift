import Foundation
import Loupe

/// The suggestion-quality cases (issue #12): does `suggest` complete a misspelled, half-typed word to the word meant?
///
/// Input: a fuzzy.txt, `misspelling<TAB>intended<TAB>edits<TAB>field,field` per line. For the intended word of
/// length L and every prefix length p from ⌈0.6·L⌉ to ⌊0.8·L⌋, the text typed is the part of the misspelling
/// aligned with the word's first p characters (`EditAlignment.typedPrefix`: the misspelling's edits where they fall
/// inside the prefix). A case passes when the intended word is among the texts of `suggest(typed, field: F,
/// limit: 5)`, F being the first of the line's fields that is a text field holding the word (a line with no such
/// field is counted as "not in the index" and has no cases). Untimed.
extension BenchRun {
    func suggestQuality(path: String, directory: String) throws -> BenchReport.SuggestQualityResult {
        let searcher = try Index(path: directory).searcher()
        var result = BenchReport.SuggestQualityResult(path: path)
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard columns.count >= 4, !line.hasPrefix("#") else { continue }
            let misspelling = String(columns[0]).lowercased()
            let intended = String(columns[1]).lowercased()
            result.lines += 1
            let fields = columns[3].split(separator: ",").map(String.init)
            var holder: String?
            for name in fields where searcher.schema.field(named: name)?.type == .text {
                if try searcher.count(.term(name, .text(intended))) > 0 {
                    holder = name
                    break
                }
            }
            guard let field = holder else {
                result.notInIndex.append(intended)
                continue
            }
            let length = intended.count
            for count in stride(from: (6 * length + 9) / 10, through: 8 * length / 10, by: 1) {
                let typed = EditAlignment.typedPrefix(of: misspelling, intended: intended, count: count)
                let got = try searcher.suggest(typed, field: field, limit: 5).map(\.text)
                let typos = EditAlignment.distance(typed, String(intended.prefix(count)))
                let passed = got.contains(where: { $0.lowercased() == intended })
                result.cases += 1
                result.passed += passed ? 1 : 0
                result.byTypos[typos, default: (0, 0)].cases += 1
                result.byTypos[typos, default: (0, 0)].passed += passed ? 1 : 0
                if !passed {
                    result.failures.append(
                        .init(
                            typed: typed, intended: intended, misspelling: misspelling, field: field,
                            prefixLength: count, typos: typos, got: got))
                }
            }
        }
        return result
    }
}
