import NIOCore
import NIOHTTPTypes

/// Closes a connection idle for the station's idle timeout (``StationConfiguration/idleTimeout``):
/// nothing read or written since. The timer starts when the connection opens and restarts
/// with each request part read and each answer written to its end, but partial request
/// heads are no parts, so headers sent a byte at a time never restart it (a slow client
/// holding a connection is closed unanswered). While a request read whole is being
/// answered the timer does not close the connection: a slow answer is not idleness.
///
/// These are the rules of Hummingbird's own idle timeout (`HTTPConnectionStateHandler`),
/// which sits after every handler the station adds: the requests ``LiveEdgeHandler``
/// answers would never reach it, and a listener polling only the live edge would be cut
/// off at the timeout. This handler sits before the live edge's, so it sees every request
/// and answer of the connection, and Hummingbird's timeout is off.
final class IdleTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
    /// Requests pass through.
    typealias InboundIn = HTTPRequestPart
    /// Requests pass through.
    typealias InboundOut = HTTPRequestPart
    /// Answers pass through.
    typealias OutboundIn = HTTPResponsePart
    /// Answers pass through.
    typealias OutboundOut = HTTPResponsePart

    private let timeout: TimeAmount
    /// Requests whose head was read and whose answer has not been written to its end.
    private var inProgress = 0
    /// Whether a request's head was read and its end not yet.
    private var reading = false
    private var lastActive = NIODeadline.now()
    private var active = false
    private var scheduled: Scheduled<Void>?

    /// A handler (one per connection) closing it after `timeout` idle.
    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    /// Starts the timer when added to a connection already open.
    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context: context) }
    }

    /// No timer outlives the handler.
    func handlerRemoved(context: ChannelHandlerContext) {
        scheduled?.cancel()
        scheduled = nil
    }

    /// Starts the timer when the connection opens.
    func channelActive(context: ChannelHandlerContext) {
        start(context: context)
        context.fireChannelActive()
    }

    /// The connection is gone: a timer still due does nothing.
    func channelInactive(context: ChannelHandlerContext) {
        active = false
        context.fireChannelInactive()
    }

    /// A request part read: activity.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        lastActive = .now()
        switch unwrapInboundIn(data) {
        case .head:
            reading = true
            inProgress += 1
        case .body:
            break
        case .end:
            reading = false
        }
        context.fireChannelRead(data)
    }

    /// An answer written to its end: activity, the timer restarted once no answer is due.
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            inProgress = max(0, inProgress - 1)
            if inProgress == 0, active {
                lastActive = .now()
                schedule(at: lastActive + timeout, context: context)
            }
        }
        context.write(data, promise: promise)
    }

    private func start(context: ChannelHandlerContext) {
        active = true
        lastActive = .now()
        schedule(at: lastActive + timeout, context: context)
    }

    /// Schedules the check at `deadline` unless one is already due (it reschedules itself
    /// to the last activity's deadline when it finds the connection was active since).
    private func schedule(at deadline: NIODeadline, context: ChannelHandlerContext) {
        guard scheduled == nil else { return }
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        scheduled = context.eventLoop.scheduleTask(deadline: deadline) {
            let (handler, context) = bound.value
            handler.scheduled = nil
            handler.check(context: context)
        }
    }

    private func check(context: ChannelHandlerContext) {
        guard active else { return }
        // A request read whole and still being answered: not idle; its answer's end
        // restarts the timer.
        if !reading, inProgress > 0 { return }
        let deadline = lastActive + timeout
        if NIODeadline.now() >= deadline {
            context.close(promise: nil)
        } else {
            schedule(at: deadline, context: context)
        }
    }
}
