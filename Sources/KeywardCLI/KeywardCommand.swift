import ArgumentParser
import Foundation
import KeywardCore

/// What a command prints, collected so the same code serves the executable and in-process tests.
public struct CommandOutput: Sendable {
  public var standardOutput = ""
  public var standardError = ""
  /// Whether standard output is a terminal (colour, when nothing else asks otherwise).
  public var isTerminal = false

  /// When set, standard output is written to the process's standard output as it is produced
  /// instead of being collected (the executable: large reports are never held whole).
  public var streamsStandardOutput = false

  /// Where a long scan shows its progress (standard error on a terminal), if anywhere.
  public var progress: ProgressMeter?

  public init(isTerminal: Bool = false, streamsStandardOutput: Bool = false) {
    self.isTerminal = isTerminal
    self.streamsStandardOutput = streamsStandardOutput
  }

  mutating func emit(_ text: String) {
    if streamsStandardOutput {
      FileHandle.standardOutput.write(Data(text.utf8))
    } else {
      standardOutput += text
    }
  }

  mutating func print(_ text: String) { emit(text.hasSuffix("\n") ? text : text + "\n") }
  mutating func warn(_ text: String) { standardError += "keyward: " + (text.hasSuffix("\n") ? text : text + "\n") }
}

public enum ExitStatus {
  public static let clean: Int32 = 0
  public static let findings: Int32 = 1
  public static let usageError: Int32 = 2
}

/// A Keyward subcommand: parsed by ArgumentParser, run with an output sink, returns its status.
protocol KeywardCommand: ParsableCommand {
  func execute(_ output: inout CommandOutput) throws -> Int32
}

extension KeywardCommand {
  func run() throws {
    var output = CommandOutput(isTerminal: isatty(STDOUT_FILENO) == 1, streamsStandardOutput: true)
    let status = try execute(&output)
    FileHandle.standardOutput.write(Data(output.standardOutput.utf8))
    FileHandle.standardError.write(Data(output.standardError.utf8))
    if status != 0 { throw ExitCode(status) }
  }
}

/// An error that ends the run with exit status 2 and a message saying what was wrong.
struct UsageError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
