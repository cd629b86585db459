import Foundation
import IdxKit

let code = Idx.run(
    Array(CommandLine.arguments.dropFirst()), stdout: StandardOutput.standardOutput,
    stderr: StandardOutput.standardError)
exit(code.rawValue)
