// Strings of Settings → About (the version and updates), English and Spanish.
import type { PackageFormat } from "../../api";

function formatName(format: PackageFormat | null): string {
  return format === "deb" ? ".deb" : format === "rpm" ? ".rpm" : format === "appimage" ? "AppImage" : "";
}

export const updatesEn = {
  aboutTitle: "About",
  aboutVersion: (version: string) => `Sidecar ${version}`,
  aboutInstalled: (format: PackageFormat | null) =>
    format === null ? "Built from source." : format === "other" ? "Installed with this system's installer." : `Installed from a ${formatName(format)} package.`,
  updateLook: "Check for updates",
  updateLooking: "Looking for a newer version…",
  updateLastLooked: (when: string) => `Last checked ${when}.`,
  updateDaily: "Check for updates once a day",
  updateDailyHint: "Sidecar only looks, and tells you; nothing is installed until you say so.",
  updateUpToDate: (version: string) => `Sidecar ${version} is the newest version.`,
  updateAvailable: (version: string) => `Sidecar ${version} is available`,
  updatePublished: (when: string) => `Published ${when}`,
  updateWhatChanged: "What changed",
  updateNoNotes: "The release says nothing about what changed.",
  updateInstall: "Install…",
  updateConfirm: (version: string) =>
    `Install Sidecar ${version} now? Your system may ask for your password. Your chats and memory stay as they are: Sidecar backs them up before the new version upgrades them.`,
  updateConfirmYes: "Install",
  updateConfirmNo: "Not now",
  updateDownloading: (percent: number | null) => (percent === null ? "Downloading…" : `Downloading… ${percent}%`),
  updateInstalling: "Checking the signature and installing…",
  updateInstalled: (version: string) => `Sidecar ${version} is installed. Restart Sidecar to use it.`,
  updateRestart: "Restart now",
  updateTryAgain: "Try again",
  updateAddress: "Update address",
  updateAddressHint: "Where Sidecar looks for new versions (a release's latest.json). Packages must be signed with Sidecar's key.",
  updateAddressSave: "Save address",
  updateAddressDefault: "Use this build's address",
  updateAddressRemove: "Remove this address",
  updateAddressSaved: "Saved. Sidecar looks here from now on.",
  updateOwnKey: "Updates must be signed with the key set in settings.toml ([updates] public_key).",
};

export const updatesEs: typeof updatesEn = {
  aboutTitle: "Acerca de",
  aboutVersion: (version: string) => `Sidecar ${version}`,
  aboutInstalled: (format: PackageFormat | null) =>
    format === null ? "Compilado desde el código." : format === "other" ? "Instalado con el instalador de este sistema." : `Instalado desde un paquete ${formatName(format)}.`,
  updateLook: "Buscar actualizaciones",
  updateLooking: "Buscando una versión más nueva…",
  updateLastLooked: (when: string) => `Última búsqueda: ${when}.`,
  updateDaily: "Buscar actualizaciones una vez al día",
  updateDailyHint: "Sidecar solo mira y te avisa; no se instala nada hasta que lo digas.",
  updateUpToDate: (version: string) => `Sidecar ${version} es la versión más nueva.`,
  updateAvailable: (version: string) => `Sidecar ${version} está disponible`,
  updatePublished: (when: string) => `Publicada el ${when}`,
  updateWhatChanged: "Qué cambió",
  updateNoNotes: "La publicación no dice qué cambió.",
  updateInstall: "Instalar…",
  updateConfirm: (version: string) =>
    `¿Instalar Sidecar ${version} ahora? El sistema puede pedirte la contraseña. Tus chats y tu memoria quedan como están: Sidecar los copia antes de que la versión nueva los actualice.`,
  updateConfirmYes: "Instalar",
  updateConfirmNo: "Ahora no",
  updateDownloading: (percent: number | null) => (percent === null ? "Descargando…" : `Descargando… ${percent} %`),
  updateInstalling: "Comprobando la firma e instalando…",
  updateInstalled: (version: string) => `Sidecar ${version} está instalado. Reinicia Sidecar para usarlo.`,
  updateRestart: "Reiniciar ahora",
  updateTryAgain: "Reintentar",
  updateAddress: "Dirección de actualizaciones",
  updateAddressHint: "Dónde busca Sidecar versiones nuevas (el latest.json de una publicación). Los paquetes deben estar firmados con la clave de Sidecar.",
  updateAddressSave: "Guardar dirección",
  updateAddressDefault: "Usar la dirección de esta versión",
  updateAddressRemove: "Quitar esta dirección",
  updateAddressSaved: "Guardada. Sidecar buscará aquí a partir de ahora.",
  updateOwnKey: "Las actualizaciones deben estar firmadas con la clave puesta en settings.toml ([updates] public_key).",
};
