import Recommender

extension StationAPI {
    /// The account a request logs in with, as its profile key (`user:<id>`): the app
    /// family's `user_id` and `token`, else the web family's `dbcl2` cookie; `nil` without
    /// valid ones (a wrong token or dead cookie counted against the address, as the
    /// playlist routes count it). The live feedback route (``LiveAnswers``) reads it: an
    /// account's word on a broadcast counts without a listener id.
    func account(_ request: StationRequest, origin: RequestOrigin) async -> String? {
        if let userID = request.nonEmptyParameter("user_id"), let token = request.nonEmptyParameter("token") {
            guard (try? await services.accounts.isValid(userID: userID, token: token)) == true else {
                services.tokenGuard.recordFailure(from: origin.address)
                return nil
            }
            return ListenerProfiles.key(userID: userID)
        }
        guard let cookie = origin.cookies["dbcl2"], !WebCookies.unquoted(cookie).isEmpty else { return nil }
        guard let userID = try? await services.accounts.webUser(cookie: cookie) else {
            services.tokenGuard.recordFailure(from: origin.address)
            return nil
        }
        return ListenerProfiles.key(userID: userID)
    }
}
