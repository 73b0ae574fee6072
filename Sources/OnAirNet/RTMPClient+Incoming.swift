import OnAirRTMP

extension RTMPClient {
    /// One decoded message with its header fields, as the connection hands it to a client.
    struct Incoming: Sendable {
        var message: RTMPMessage
        var timestamp: UInt32
        var messageStreamID: UInt32
    }
}
