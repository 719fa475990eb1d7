//! The local API's errors, as JSON in the shape OpenAI's clients read
//! (`{"error": {"message", "type", "code"}}`), each with its HTTP status.

use http::StatusCode;
use serde_json::json;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub(crate) enum ApiError {
    #[error("no token: send 'Authorization: Bearer sk-sidecar-…' (make one in Settings → Connections, or with `sidecar connections token NAME --scopes …`)")]
    NoToken,
    #[error("this token is not one Sidecar gave, or it was replaced or revoked")]
    BadToken,
    #[error("{0}")]
    Refused(String),
    #[error("requests must come to 127.0.0.1 or localhost (Host was {0:?})")]
    ForeignHost(String),
    #[error("requests from a web page are only answered for pages on this computer (Origin was {0:?})")]
    ForeignOrigin(String),
    #[error("no such endpoint: {method} {path}; see /v1/openapi.json")]
    NotFound { method: String, path: String },
    #[error("the request body is over {0} bytes")]
    TooLarge(usize),
    #[error("the request is not valid: {0}")]
    Invalid(String),
    #[error("too many requests from this client; try again in {0} s")]
    RateLimited(u64),
    #[error("{0}")]
    Failed(String),
}

impl ApiError {
    pub(crate) fn status(&self) -> StatusCode {
        match self {
            ApiError::NoToken | ApiError::BadToken => StatusCode::UNAUTHORIZED,
            ApiError::Refused(_) | ApiError::ForeignHost(_) | ApiError::ForeignOrigin(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound { .. } => StatusCode::NOT_FOUND,
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::Invalid(_) => StatusCode::BAD_REQUEST,
            ApiError::RateLimited(_) => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Failed(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// OpenAI's error type names, so its clients raise the matching exception.
    fn kind(&self) -> &'static str {
        match self {
            ApiError::NoToken | ApiError::BadToken => "authentication_error",
            ApiError::Refused(_) | ApiError::ForeignHost(_) | ApiError::ForeignOrigin(_) => "permission_error",
            ApiError::NotFound { .. } => "not_found_error",
            ApiError::TooLarge(_) | ApiError::Invalid(_) => "invalid_request_error",
            ApiError::RateLimited(_) => "rate_limit_error",
            ApiError::Failed(_) => "api_error",
        }
    }

    pub(crate) fn body(&self) -> serde_json::Value {
        json!({"error": {"message": self.to_string(), "type": self.kind(), "code": self.status().as_u16()}})
    }
}

impl From<crate::connections::Refused> for ApiError {
    fn from(refused: crate::connections::Refused) -> Self {
        match refused {
            crate::connections::Refused::Unchecked(why) => ApiError::Failed(why),
            other => ApiError::Refused(other.to_string()),
        }
    }
}
