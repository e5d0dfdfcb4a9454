import Radio

/// What a key press in a screen in front of the now-playing one asks of its caller
/// (`InteractionState`): the channel list, the downloads, the history and the lyrics views
/// with `Request` a ``RadioCommand``, the login dialog with a ``LoginRequest``.
///
/// One type for every view, because the caller does the same for each: redraw, close the
/// view, carry out a request with the view kept or closed, or tell the listener why not.
/// No view needs a case of its own: what differs between views is the request, which is
/// the type parameter.
public enum ViewOutcome<Request: Sendable & Equatable>: Sendable, Equatable {
    /// Nothing beyond redrawing.
    case stay
    /// Close the view.
    case close
    /// Carry this out; the view stays open (a download paused, a past song liked, a
    /// lyrics nudge, a login submitted).
    case send(Request)
    /// The listener chose: carry this out and close the view (a channel switched to).
    case chose(Request)
    /// The key asked for what cannot be done; nothing is carried out, the status line says
    /// why and the view stays open (a report about a song another station played).
    case refused(RadioError)
}
