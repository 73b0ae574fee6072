import OnAirCore
import OnAirNet

/// A server's ReconnectRequest on the play (Enhanced RTMP v2 `NetConnection.Connect.ReconnectRequest`),
/// followed make before break (``SubscriberMove``): connect and play at the request's `tcUrl` (this server
/// when it names none) while the old connection keeps playing; switch when the new one brings the newest
/// frame shown or a newer one; then leave the old one. If the new one fails first, the old one plays on.
extension SubscriberController {
    func beginMove(tcUrl: String?) {
        guard let name = playingName else { return }
        cancelMove()
        var target = movedURL ?? url
        if let tcUrl, let moved = try? StreamURL("\(tcUrl)/\(target.streamName)") { target = moved }
        if name != url.bareStreamName { target.streamName = name }
        report(.notice("the server asked to reconnect (NetConnection.Connect.ReconnectRequest): playing at \(target.redacted); the old connection plays until the new one has caught up"))
        let id = newGeneration()
        let player = RTMPPlayer(url: target, configuration: rtmp)
        let newest = media.withFacts { $0.streamHasVideo ? $0.videoFreshness.newestTimestamp : $0.audioFreshness.newestTimestamp }
        pendingMove = SubscriberMove(id: id, player: player, target: target, since: clock.now, oldNewest: newest)
        let post = post
        let media = media
        Task {
            do {
                try await player.start()
            } catch {
                post(.playFailed(generation: id, reason: "\(error)"))
                return
            }
            await media.pump(player, generation: id, post: post)
        }
    }

    /// What the new connection of a move reported before the switch.
    func moveReported(_ event: RTMPPlayer.Event, at now: SessionTime) {
        guard var move = pendingMove else { return }
        switch event {
        case .videoTrack: move.videoTrack = event
        case .audioTrack: move.audioTrack = event
        case .metadata: move.metadata = event
        case .packet(let packet):
            if let duplicate = caughtUp(packet, with: move) {
                pendingMove = nil
                switchTo(move, at: now)
                if !duplicate { playerReported(event, at: now) }
                return
            }
            move.skipped += 1
        case .closed(let error):
            pendingMove = nil
            Task { await move.player.stop() }
            report(.warning("the move to \(move.target.redacted) failed before it played (\(error?.description ?? "the server closed the connection")); playing on at the old connection", dropped: nil))
            return
        case .notice(let text):
            report(.notice(text))
        case .warning(let text):
            report(.warning(text, dropped: nil))
        case .status, .message, .streamBegin, .streamEOF, .streamDry, .reconnectRequest, .undecodable:
            break
        }
        pendingMove = move
    }

    /// The new connection of a move could not connect or play: the old one plays on.
    func movePlayFailed(_ reason: String) {
        guard let move = pendingMove else { return }
        pendingMove = nil
        report(.warning("the move to \(move.target.redacted) failed: \(reason); playing on at the old connection", dropped: nil))
    }

    /// Makes the move's connection the play and leaves the old one.
    func switchTo(_ move: SubscriberMove, at now: SessionTime) {
        let old = player
        player = move.player
        generation = move.id
        movedURL = move.target
        audioPlayedThrough = media.withFacts { $0.audioFreshness.newestTimestamp }
        for held in [move.metadata, move.videoTrack, move.audioTrack].compactMap({ $0 }) { playerReported(held, at: now) }
        let milliseconds = now.milliseconds - move.since.milliseconds
        report(.notice("moved: playing at \(move.target.redacted) \(milliseconds) ms after the request (\(move.skipped) packets the old connection had delivered skipped); the old connection is left"))
        if let old { Task { await old.stop() } }
    }

    /// A play, a stop or another request replaces a move in flight (and ends a finished one's audio filter).
    func cancelMove() {
        audioPlayedThrough = nil
        guard let move = pendingMove else { return }
        pendingMove = nil
        Task { await move.player.stop() }
    }

    /// A number no connection has had.
    func newGeneration() -> Int {
        lastGeneration += 1
        return lastGeneration
    }

    /// Nil while the new connection is behind the old one's picture; once it has caught up, whether this
    /// packet is the newest one shown (a duplicate, dropped) or newer. Video decides when there is video.
    private func caughtUp(_ packet: EncodedPacket, with move: SubscriberMove) -> Bool? {
        guard decides(packet) else { return nil }
        guard let newest = move.oldNewest else { return false }
        let timestamp = packet.decodeTimestamp
        if timestamp > newest || newest - timestamp > FrameFreshness.newSourceStepBackMilliseconds { return false }
        return timestamp == newest ? true : nil
    }

    /// Video decides when there is video (audio alone when there is none).
    private func decides(_ packet: EncodedPacket) -> Bool {
        packet.kind == .video || !media.withFacts { $0.streamHasVideo }
    }

    /// Whether a report of the current connection is taken. While a move is in flight its media marks how
    /// far the old connection has come; after a switch, the new connection's first audio packets that the
    /// old one already played are dropped (played twice they would repeat some sound) until a newer one.
    func filterAroundMove(_ event: RTMPPlayer.Event) -> Bool {
        guard case .packet(let packet) = event else { return true }
        if pendingMove != nil, decides(packet) { pendingMove?.oldNewest = packet.decodeTimestamp }
        guard let through = audioPlayedThrough, packet.kind == .audio else { return true }
        if packet.decodeTimestamp <= through, through - packet.decodeTimestamp <= FrameFreshness.newSourceStepBackMilliseconds { return false }
        audioPlayedThrough = nil
        return true
    }
}
