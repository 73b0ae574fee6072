import NIOCore
import NIOEmbedded

/// Stands in for a socket that has stopped taking bytes, in front of the relay's handler on an
/// `EmbeddedChannel`, which otherwise "writes" whatever is flushed. While it holds, flushes stop here, so
/// the relay's writes stay in the channel's pending buffer — what `bufferedWritableBytes` reports, as NIO
/// does for bytes a full socket has not taken — and a close drops them, as NIO's does. Past
/// ``highWaterMark`` held bytes the channel turns unwritable, from inside the write, as NIO's does.
/// Released, the held flush goes on, the peer reads the bytes and the channel is writable again.
final class HeldSocketBuffer: ChannelOutboundHandler {
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// The relay's own default high water mark is 256 KiB; smaller here, so inputs reach it.
    static let highWaterMark = 64 << 10

    private var holding = false
    private var flushHeld = false
    private var heldBytes = 0
    private var context: ChannelHandlerContext?
    private unowned let channel: EmbeddedChannel

    init(channel: EmbeddedChannel) {
        self.channel = channel
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let count = unwrapOutboundIn(data).readableBytes
        context.write(data, promise: promise)
        guard holding else { return }
        heldBytes += count
        if heldBytes > Self.highWaterMark, channel.isWritable {
            channel.isWritable = false
            context.fireChannelWritabilityChanged()
        }
    }

    func flush(context: ChannelHandlerContext) {
        if holding {
            flushHeld = true
        } else {
            context.flush()
        }
    }

    /// The socket is full: nothing flushed from now on leaves until ``release()``.
    func hold() {
        holding = true
    }

    /// The socket drained: what was held is written, and the channel is writable again.
    func release() {
        holding = false
        heldBytes = 0
        if flushHeld, let context {
            flushHeld = false
            context.flush()
        }
        if !channel.isWritable, let context {
            channel.isWritable = true
            context.fireChannelWritabilityChanged()
        }
    }
}
