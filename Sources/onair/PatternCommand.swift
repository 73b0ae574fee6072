import ArgumentParser
import OnAirApp

struct PatternCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pattern",
        abstract: "Write the test pattern, frame markers included, to a Y4M file (for another publisher, e.g. ffmpeg).",
        discussion: """
            Each frame carries its number and its time since frame 0 in the block row along its top edge. \
            Send the file with another publisher (ffmpeg -re -i FILE.y4m …) and read it with \
            `onair subscribe --pattern-epoch $(date +%s.%N taken when the sender started)`: the subscriber's \
            glass-to-glass figures then count from the instant each frame was due.
            """
    )

    @Option(help: "The file to write (created or replaced).")
    var out: String

    @Option(help: "Picture size WIDTHxHEIGHT (even).")
    var size = "1280x720"

    @Option(parsing: .unconditional, help: "Frames per second.")
    var fps: Double = 30

    @Option(parsing: .unconditional, help: "Length in seconds (at most 3600; 720p30 is 83 MB a second).")
    var seconds: Double = 10

    func run() async throws {
        try await runFrontEnd {
            let summary = try PatternFrontEnd.run(out: out, size: size, framesPerSecond: fps, seconds: seconds)
            FileDescriptorOutput.standardError.writeLine(summary)
        }
    }
}
