import Foundation

extension APIDecoder {
    /// Decodes `/j/new_captcha`: a JSON string, the captcha id (fixture F8,
    /// `"8Z9w6tODHEukHkAmBz52dWg4:en"`).
    ///
    /// - Throws: ``APIError/malformed(_:)`` when the answer is not a non-empty string.
    public static func captchaID(_ body: Data) throws(APIError) -> String {
        let json = try jsonBytes(body)
        guard let id = try? JSONDecoder().decode(String.self, from: json) else {
            throw .malformed("expected the captcha id as a JSON string")
        }
        let trimmed = id.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .malformed("empty captcha id") }
        return trimmed
    }

    /// Decodes a web login answer (fixtures F4, F5, F7).
    ///
    /// - Throws: ``APIError/refused(code:message:)`` with the server's own words for a
    ///   refused login (`err_no`/`err_msg`: wrong captcha, wrong password);
    ///   ``APIError/server(_:)`` for the app-style `{"r":1,"err":…}`;
    ///   ``APIError/malformed(_:)`` for a success without `user_info`.
    public static func webLogin(_ body: Data) throws(APIError) -> WebUser {
        let json = try jsonBytes(body)
        let answer = try decode(WebLoginAnswer.self, from: json)
        guard answer.status == 0 else {
            if let message = answer.errorMessage { throw .refused(code: answer.errorNumber, message: message) }
            if let code = answer.errorNumber { throw .refused(code: code, message: "") }
            throw .server(answer.error ?? "unknown_error")
        }
        guard let user = answer.user, let id = user.id ?? user.uid else {
            throw .malformed("login succeeded but user_info is missing")
        }
        return WebUser(id: id, uid: user.uid ?? id, name: user.name ?? "", isPro: user.isPro ?? false)
    }
}
