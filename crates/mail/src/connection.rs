//! A logged-in IMAP session: TLS from the first byte, STARTTLS before the password, or
//! plain to this computer only; every step bounded in time.

use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use async_imap::Session;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio_rustls::client::TlsStream;

use crate::error::MailError;
use crate::server::{is_this_computer, MailSecurity, MailServer};

/// How long connecting, the greeting, TLS and the login may take.
const CONNECT_LIMIT: Duration = Duration::from_secs(20);

/// The byte stream under a session, encrypted or (to this computer) not.
#[derive(Debug)]
pub(crate) enum Stream {
    Plain(TcpStream),
    Tls(Box<TlsStream<TcpStream>>),
}

pub(crate) type MailSession = Session<Stream>;

/// Logs in to `server` as `username`; a refused password is [`MailError::Refused`].
#[tracing::instrument(skip_all, fields(host = %server.host, port = server.port, security = ?server.security))]
pub(crate) async fn log_in(server: &MailServer, username: &str, password: &str) -> Result<MailSession, MailError> {
    let host = server.host.trim();
    if host.is_empty() || host.contains(char::is_whitespace) || host.contains('/') {
        return Err(MailError::NotAServer(server.host.clone()));
    }
    if server.security == MailSecurity::Plain && !is_this_computer(host) {
        return Err(MailError::PlainElsewhere(host.to_string()));
    }
    let client = tokio::time::timeout(CONNECT_LIMIT, open(host, server.port, server.security))
        .await
        .map_err(|_| MailError::Unreachable(format!("{host}:{} did not answer within {CONNECT_LIMIT:?}", server.port)))??;
    match tokio::time::timeout(CONNECT_LIMIT, client.login(username, password)).await {
        Err(_) => Err(MailError::Unreachable("the login was not answered in time".into())),
        Ok(Ok(session)) => Ok(session),
        Ok(Err((async_imap::error::Error::No(_), _))) => Err(MailError::Refused),
        Ok(Err((e, _))) => Err(e.into()),
    }
}

async fn open(host: &str, port: u16, security: MailSecurity) -> Result<async_imap::Client<Stream>, MailError> {
    let tcp = TcpStream::connect((host, port)).await.map_err(|e| MailError::Unreachable(e.to_string()))?;
    match security {
        MailSecurity::Tls => {
            let mut client = async_imap::Client::new(Stream::Tls(Box::new(tls(host, tcp).await?)));
            greeting(&mut client).await?;
            Ok(client)
        }
        MailSecurity::Plain => {
            let mut client = async_imap::Client::new(Stream::Plain(tcp));
            greeting(&mut client).await?;
            Ok(client)
        }
        MailSecurity::StartTls => {
            let mut client = async_imap::Client::new(Stream::Plain(tcp));
            greeting(&mut client).await?;
            client.run_command_and_check_ok("STARTTLS", None).await?;
            let Stream::Plain(tcp) = client.into_inner() else { unreachable!("STARTTLS starts on the plain stream") };
            Ok(async_imap::Client::new(Stream::Tls(Box::new(tls(host, tcp).await?))))
        }
    }
}

async fn greeting(client: &mut async_imap::Client<Stream>) -> Result<(), MailError> {
    match client.read_response().await {
        Ok(Some(_)) => Ok(()),
        Ok(None) => Err(MailError::Unreachable("the server closed the connection before greeting".into())),
        Err(e) => Err(MailError::Unreachable(e.to_string())),
    }
}

/// TLS with the web's root certificates, checked against `host`.
async fn tls(host: &str, tcp: TcpStream) -> Result<TlsStream<TcpStream>, MailError> {
    let roots = rustls::RootCertStore { roots: webpki_roots::TLS_SERVER_ROOTS.to_vec() };
    let config = rustls::ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
        .with_safe_default_protocol_versions()
        .map_err(|e| MailError::Untrusted(e.to_string()))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    let name = rustls::pki_types::ServerName::try_from(host.to_string()).map_err(|_| MailError::NotAServer(host.to_string()))?;
    tokio_rustls::TlsConnector::from(Arc::new(config)).connect(name, tcp).await.map_err(|e| match e.kind() {
        std::io::ErrorKind::InvalidData => MailError::Untrusted(e.to_string()),
        _ => MailError::Unreachable(e.to_string()),
    })
}

impl AsyncRead for Stream {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_read(cx, buf),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for Stream {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_write(cx, buf),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_write(cx, buf),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_flush(cx),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        match self.get_mut() {
            Stream::Plain(s) => Pin::new(s).poll_shutdown(cx),
            Stream::Tls(s) => Pin::new(s.as_mut()).poll_shutdown(cx),
        }
    }
}
