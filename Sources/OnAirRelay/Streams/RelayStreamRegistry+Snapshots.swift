import NIOCore

/// What the relay reports about itself: the streams as a snapshot, and socket facts read back from the kernel.
/// Read-only views of the registry, for ``RelayServer`` and the tests.
extension RelayStreamRegistry {
    /// TCP_NODELAY of every open connection's socket, read back from the kernel (``RelayServer/connectionNoDelay()``).
    func connectionNoDelay() -> [Bool] {
        connections.values.compactMap { handler in
            (try? handler.context?.channel.syncOptions?.getOption(ChannelOptions.socketOption(.tcp_nodelay))).map { $0 != 0 }
        }
    }

    /// Whether each open connection writes straight to its socket (``RelayServer/connectionDirectWrites()``).
    func connectionDirectWrites() -> [Bool] {
        connections.values.map(\.writesDirectly)
    }

    func snapshot() -> [RelayStreamSnapshot] {
        for handler in connections.values { handler.reconcileWrites() }
        return streams.values.sorted { $0.name.qualified < $1.name.qualified }.map { stream in
            RelayStreamSnapshot(
                name: stream.name.qualified, isPublished: stream.isPublished,
                publishType: stream.isPublished ? stream.publishType : nil,
                bytesIn: stream.bytesIn, bytesOut: stream.bytesOut,
                players: stream.players.values.sorted { $0.handler.id < $1.handler.id }.map {
                    .init(connection: $0.handler.id, bytesOut: $0.bytesOut, droppedMessages: $0.handler.droppedMessages,
                          queuedBytes: $0.handler.queuedBytes)
                })
        }
    }
}
