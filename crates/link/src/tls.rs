//! The device's TLS: the home core's certificate is trusted by its pinned SHA-256, not
//! by a name or an authority (a home server has neither). Before pairing nothing is
//! pinned yet: the certificate seen is kept, shown on both sides, and pinned from then on.

use std::sync::{Arc, Mutex};

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{DigitallySignedStruct, SignatureScheme};
use tokio::net::TcpStream;
use tokio_rustls::client::TlsStream;

use crate::error::LinkError;
use crate::identity::Fingerprint;

#[derive(Debug)]
struct Pinned {
    pin: Option<Fingerprint>,
    seen: Mutex<Option<Fingerprint>>,
    provider: Arc<CryptoProvider>,
}

impl ServerCertVerifier for Pinned {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _name: &ServerName<'_>,
        _ocsp: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let got = Fingerprint::of(end_entity);
        *self.seen.lock().expect("seen") = Some(got);
        match self.pin {
            Some(pin) if pin != got => Err(rustls::Error::General("the certificate is not the one pinned".into())),
            _ => Ok(ServerCertVerified::assertion()),
        }
    }

    fn verify_tls12_signature(&self, message: &[u8], cert: &CertificateDer<'_>, dss: &DigitallySignedStruct) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.provider.signature_verification_algorithms)
    }

    fn verify_tls13_signature(&self, message: &[u8], cert: &CertificateDer<'_>, dss: &DigitallySignedStruct) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.provider.signature_verification_algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider.signature_verification_algorithms.supported_schemes()
    }
}

/// A TLS connection to `address`, to the certificate `pin` names (any, before pairing);
/// with the certificate's fingerprint.
pub(crate) async fn connect(address: &str, pin: Option<Fingerprint>) -> Result<(TlsStream<TcpStream>, Fingerprint), LinkError> {
    let unreachable = |reason: String| LinkError::Unreachable { address: address.to_string(), reason };
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let verifier = Arc::new(Pinned { pin, seen: Mutex::new(None), provider: provider.clone() });
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| LinkError::Identity(e.to_string()))?
        .dangerous()
        .with_custom_certificate_verifier(verifier.clone())
        .with_no_client_auth();
    let tcp = tokio::time::timeout(std::time::Duration::from_secs(10), TcpStream::connect(address))
        .await
        .map_err(|_| unreachable("no answer in 10 seconds".into()))?
        .map_err(|e| unreachable(e.to_string()))?;
    let _ = tcp.set_nodelay(true);
    let name = ServerName::try_from("sidecar.invalid").expect("a name");
    let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
    match connector.connect(name, tcp).await {
        Ok(tls) => {
            let seen = verifier.seen.lock().expect("seen").expect("a certificate was checked");
            Ok((tls, seen))
        }
        Err(e) => match (pin, *verifier.seen.lock().expect("seen")) {
            (Some(expected), Some(got)) if expected != got => Err(LinkError::CertificateChanged { expected: expected.to_string(), got: got.to_string() }),
            _ => Err(unreachable(e.to_string())),
        },
    }
}
