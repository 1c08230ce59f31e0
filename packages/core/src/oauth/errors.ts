/**
 * An OAuth protocol error (RFC 6749 §5.2, RFC 7591 §3.2.2, RFC 8707): the token, registration and
 * revocation endpoints answer it as `{ error, error_description }`, the authorize endpoint as a
 * redirect (or, before the client and redirect URI are trusted, an error page).
 */
export class OAuthError extends Error {
  readonly error: string
  readonly status: number
  constructor(error: string, description: string, status = 400) {
    super(description)
    this.name = 'OAuthError'
    this.error = error
    this.status = status
  }

  toJSON(): { error: string; error_description: string } {
    return { error: this.error, error_description: this.message }
  }
}

export function isOAuthError(value: unknown): value is OAuthError {
  return value instanceof OAuthError
}
