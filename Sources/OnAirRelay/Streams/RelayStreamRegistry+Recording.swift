/// How the registry ends a stream's recording: closed with its publish, or stopped by an error, the file
/// ending at its last whole tag either way (``RelayRecorder``).
extension RelayStreamRegistry {
    /// A recording that cannot go on: an error event saying it stopped and why; the file keeps its whole tags.
    func recordingStopped(_ stream: RelayStream, _ recorder: RelayRecorder, _ error: RelayRecordingFile.Error) {
        stream.recorder = nil
        recorder.abandon()
        emit(.recordingFailed(stream: stream.name.qualified, path: recorder.path,
                              reason: "recording stopped: \(error); the file ends at its last whole tag"))
    }

    /// Closes the stream's recording after checking it is still the file it wrote: a `recordingStopped`
    /// event with its size, or `recordingFailed` saying why.
    func closeRecorder(_ stream: RelayStream) {
        guard let recorder = stream.recorder else { return }
        stream.recorder = nil
        do {
            try recorder.checkInPlace()
            let bytes = try recorder.close()
            emit(.recordingStopped(stream: stream.name.qualified, path: recorder.path, bytes: bytes))
        } catch {
            recorder.abandon()
            emit(.recordingFailed(stream: stream.name.qualified, path: recorder.path, reason: "recording stopped: \(error)"))
        }
    }
}
