//! A CalDAV server's answers, capped: libdav reads each answer whole into memory, so a
//! server answering a listing with a gigabyte would take gigabytes. The connection
//! counts the bytes it reads since Sidecar last wrote (one answer, on HTTP/1.1 without
//! pipelining) and fails past [`MAX_ANSWER_BYTES`]; the error is told apart by
//! [`AnswerTooLarge`].

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

use http::Uri;
use hyper_util::client::legacy::connect::{Connected, Connection, HttpConnector};
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;

/// The largest answer read from a calendar server: a listing of 20,000 events is about
/// 5 MB, a multiget of 100 large ones a few MB.
pub(crate) const MAX_ANSWER_BYTES: u64 = 50_000_000;

/// Why a connection stopped reading: the answer passed the cap.
#[derive(Debug, thiserror::Error)]
#[error("the calendar server's answer is larger than {} MB", MAX_ANSWER_BYTES / 1_000_000)]
pub(crate) struct AnswerTooLarge;

/// A TCP stream that fails a read once more than `cap` bytes came since the last write.
pub(crate) struct Capped<T> {
    inner: T,
    cap: u64,
    since_write: u64,
}

impl<T> Capped<T> {
    pub(crate) fn new(inner: T, cap: u64) -> Self {
        Self { inner, cap, since_write: 0 }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for Capped<T> {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        ready!(Pin::new(&mut this.inner).poll_read(cx, buf))?;
        this.since_write += (buf.filled().len() - before) as u64;
        if this.since_write > this.cap {
            return Poll::Ready(Err(io::Error::other(AnswerTooLarge)));
        }
        Poll::Ready(Ok(()))
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Capped<T> {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let written = ready!(Pin::new(&mut this.inner).poll_write(cx, buf))?;
        if written > 0 {
            // A new request: the next bytes read are its answer.
            this.since_write = 0;
        }
        Poll::Ready(Ok(written))
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

impl Connection for Capped<TcpStream> {
    fn connected(&self) -> Connected {
        self.inner.connected()
    }
}

/// hyper's own connector, its streams capped.
#[derive(Clone)]
pub(crate) struct Connector {
    http: HttpConnector,
}

impl Connector {
    pub(crate) fn new() -> Self {
        let mut http = HttpConnector::new();
        // https:// goes through the TLS layer above this one.
        http.enforce_http(false);
        Self { http }
    }
}

type Connecting = Pin<Box<dyn Future<Output = Result<TokioIo<Capped<TcpStream>>, Box<dyn std::error::Error + Send + Sync>>> + Send>>;

impl tower_service::Service<Uri> for Connector {
    type Response = TokioIo<Capped<TcpStream>>;
    type Error = Box<dyn std::error::Error + Send + Sync>;
    type Future = Connecting;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.http.poll_ready(cx).map_err(Into::into)
    }

    fn call(&mut self, uri: Uri) -> Self::Future {
        let connecting = self.http.call(uri);
        Box::pin(async move {
            let stream = connecting.await?.into_inner();
            Ok(TokioIo::new(Capped::new(stream, MAX_ANSWER_BYTES)))
        })
    }
}

/// Whether `error`, or what caused it, is an answer past the cap.
pub(crate) fn too_large(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause = Some(error);
    while let Some(now) = cause {
        if now.is::<AnswerTooLarge>() || now.downcast_ref::<io::Error>().and_then(|e| e.get_ref()).is_some_and(|inner| inner.is::<AnswerTooLarge>()) {
            return true;
        }
        cause = now.source();
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    #[tokio::test]
    async fn an_answer_past_the_cap_fails_and_the_next_request_starts_afresh() {
        let (client, mut server) = tokio::io::duplex(1 << 16);
        let mut capped = Capped::new(client, 1_000);
        capped.write_all(b"GET").await.unwrap();
        server.write_all(&[b'x'; 800]).await.unwrap();
        let mut got = vec![0; 800];
        capped.read_exact(&mut got).await.unwrap();
        // A second request: its answer has the whole cap again.
        capped.write_all(b"GET").await.unwrap();
        server.write_all(&[b'y'; 900]).await.unwrap();
        capped.read_exact(&mut [0; 900]).await.unwrap();
        server.write_all(&[b'z'; 200]).await.unwrap();
        let error = capped.read_exact(&mut [0; 200]).await.unwrap_err();
        assert!(too_large(&error), "{error}");
    }
}
