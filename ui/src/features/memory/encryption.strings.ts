// Strings of the database's encryption at rest (Settings → Your data), English and Spanish.

export const encryptionEn = {
  encryptionTitle: "Encrypted database",
  encryptionIntro:
    "Encrypted, your conversations, facts' history and notes can only be read on this computer, with the key Sidecar keeps in the system keychain. The Markdown memory files (what Sidecar knows about you) stay plain so you can edit them; disk encryption covers them.",
  encryptionOn: "The database is encrypted; its key is in this computer's keychain.",
  encryptionOff: "The database is not encrypted.",
  encryptionWillEncrypt: "Sidecar encrypts the database when it starts next.",
  encryptionWillDecrypt: "Sidecar makes the database plain again when it starts next.",
  encryptionFailed: (why: string) => `The last start could not convert it: ${why}`,
  encryptionTurnOn: "Encrypt it",
  encryptionTurnOff: "Stop encrypting",
  encryptionCancel: "Do not change it",
  encryptionRestart: "Restart now",
  encryptionKeyWarning: "If this computer's keychain is lost (a new system, a reset login keyring), so is the database: keep backups with a passphrase.",
};

export const encryptionEs: typeof encryptionEn = {
  encryptionTitle: "Base de datos cifrada",
  encryptionIntro:
    "Cifrada, tus conversaciones, el historial de datos y las notas solo se pueden leer en este ordenador, con la clave que Sidecar guarda en el llavero del sistema. Los archivos Markdown de la memoria (lo que Sidecar sabe de ti) siguen en claro para que puedas editarlos; el cifrado del disco los protege.",
  encryptionOn: "La base de datos está cifrada; su clave está en el llavero de este ordenador.",
  encryptionOff: "La base de datos no está cifrada.",
  encryptionWillEncrypt: "Sidecar cifrará la base de datos la próxima vez que se abra.",
  encryptionWillDecrypt: "Sidecar dejará la base de datos sin cifrar la próxima vez que se abra.",
  encryptionFailed: (why: string) => `La última vez que se abrió no se pudo convertir: ${why}`,
  encryptionTurnOn: "Cifrarla",
  encryptionTurnOff: "Dejar de cifrarla",
  encryptionCancel: "No cambiarla",
  encryptionRestart: "Reiniciar ahora",
  encryptionKeyWarning: "Si se pierde el llavero de este ordenador (un sistema nuevo, un llavero de sesión reiniciado), se pierde la base de datos: guarda copias con frase de contraseña.",
};
