// Strings of Settings → Devices (the user's other devices attached to this Sidecar), English and Spanish.

export const devicesEn = {
  devicesTitle: "Other devices",
  devicesIntro:
    "Let your other computers use this Sidecar: they see your conversations, memory, reminders and tasks, and this computer does the work. Nothing listens beyond this computer until you name an address here (your network's, or a WireGuard or Tailscale one).",
  devicesAddresses: "Addresses other devices reach this Sidecar at",
  devicesAddressesPlaceholder: "192.168.1.20, 100.101.102.103",
  devicesSave: "Listen there",
  devicesOff: "Turn off",
  devicesListening: (at: string) => `Listening at ${at}`,
  devicesNotListening: "Off: no other device can reach this Sidecar.",
  devicesCertificate: "This Sidecar's certificate (a device shows the same when it pairs):",
  devicesCode: "Show a pairing code",
  devicesCodeShown: (code: string, until: string) => `Pairing code: ${code} (until ${until}, 5 tries)`,
  devicesCodeHow: (address: string) => `On the other computer: sidecar devices pair ${address} CODE`,
  devicesNone: "No device is paired yet.",
  devicesPaired: (when: string) => `Paired ${when}`,
  devicesSeen: (when: string) => `last seen ${when}`,
  devicesNeverSeen: "not seen since pairing",
  devicesRevoke: "Revoke",
  devicesLost:
    "Lost a device? Revoke it here: it is cut off at once and must pair again with a new code.",
};

export const devicesEs: typeof devicesEn = {
  devicesTitle: "Otros dispositivos",
  devicesIntro:
    "Deja que tus otros ordenadores usen este Sidecar: ven tus conversaciones, tu memoria, tus recordatorios y tus tareas, y el trabajo lo hace este ordenador. Nada escucha fuera de este ordenador hasta que indiques aquí una dirección (la de tu red, o una de WireGuard o Tailscale).",
  devicesAddresses: "Direcciones por las que otros dispositivos llegan a este Sidecar",
  devicesAddressesPlaceholder: "192.168.1.20, 100.101.102.103",
  devicesSave: "Escuchar ahí",
  devicesOff: "Desactivar",
  devicesListening: (at: string) => `Escuchando en ${at}`,
  devicesNotListening: "Desactivado: ningún otro dispositivo puede llegar a este Sidecar.",
  devicesCertificate: "El certificado de este Sidecar (un dispositivo muestra el mismo al emparejarse):",
  devicesCode: "Mostrar un código de emparejamiento",
  devicesCodeShown: (code: string, until: string) => `Código: ${code} (hasta las ${until}, 5 intentos)`,
  devicesCodeHow: (address: string) => `En el otro ordenador: sidecar devices pair ${address} CÓDIGO`,
  devicesNone: "Aún no hay ningún dispositivo emparejado.",
  devicesPaired: (when: string) => `Emparejado el ${when}`,
  devicesSeen: (when: string) => `visto por última vez el ${when}`,
  devicesNeverSeen: "no visto desde que se emparejó",
  devicesRevoke: "Revocar",
  devicesLost:
    "¿Perdiste un dispositivo? Revócalo aquí: queda desconectado al momento y tendrá que emparejarse de nuevo con un código nuevo.",
};
