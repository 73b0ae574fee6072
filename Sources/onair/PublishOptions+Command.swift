import OnAirApp
import OnAirCore

extension PublishOptions {
    /// The publisher's options as `publish` and `demo` both take them from their option groups.
    init(url: String, type: PublishType? = nil, policy: PolicyOptions, engine: EngineOptions, tls: TLSOptions, presentation: PresentationOptions) {
        self.init(
            url: url,
            initialType: type,
            policy: policy.kind,
            suspendTimeout: policy.suspendTimeout,
            sendTimeout: policy.sendTimeout,
            engine: engine.settings(previewFramesPerSecond: presentation.previewFps),
            duration: presentation.duration,
            theme: presentation.theme,
            color: presentation.color,
            logFile: presentation.log,
            caFile: tls.caFile
        )
    }
}
