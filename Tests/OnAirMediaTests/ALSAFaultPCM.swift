import Foundation
import Testing

/// The fault-injecting ALSA capture PCM of `Tests/Devices/alsa-fault-plugin` (an ioplug external plugin),
/// built with gcc for this test and loaded from the private ALSA configuration `ALSACapture` is given.
/// `set("xrun 1")`, `set("suspend 1")`, `set("unplug")`, `set("ok")` make it fail as devices do.
final class ALSAFaultPCM {
    let files: TestFiles
    let control: String
    let configuration: String
    static let device = "fault"

    init() throws {
        files = try TestFiles()
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Devices/alsa-fault-plugin/onair_fault_pcm.c").path
        let library = files.path("libasound_module_pcm_onairfault.so")
        let gcc = Process()
        gcc.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        gcc.arguments = ["gcc", "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC", "-O2", "-o", library, source, "-lasound", "-lm"]
        let errors = Pipe()
        gcc.standardError = errors
        try gcc.run()
        gcc.waitUntilExit()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard gcc.terminationStatus == 0 else { throw BuildFailure(message: "gcc (libasound2-dev) failed: \(text)") }
        control = files.path("control")
        configuration = """
        pcm_type.onairfault { lib "\(library)" }
        pcm.\(ALSAFaultPCM.device) { type onairfault control "\(control)" }
        """
        try set("ok")
    }

    struct BuildFailure: Error, CustomStringConvertible { var message: String; var description: String { message } }

    /// Writes the control word the plugin reads on its next pointer update (or open).
    func set(_ word: String) throws {
        try (word + "\n").write(toFile: control, atomically: true, encoding: .utf8)
    }
}
