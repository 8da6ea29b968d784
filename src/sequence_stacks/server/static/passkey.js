// Passkeys in the browser (#26): the server's WebAuthn options (JSON) become the
// browser's, and its answer goes back as JSON. `PublicKeyCredential`'s own JSON
// methods where the browser has them, else the same conversion by hand.

const bytes = (text) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(text.length / 4) * 4, "=")), (c) => c.charCodeAt(0));
const text = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

/** True when this browser can make and use passkeys. */
export function canUsePasskeys() {
  return typeof window.PublicKeyCredential === "function" && !!navigator.credentials;
}

function creationOptions(json) {
  if (PublicKeyCredential.parseCreationOptionsFromJSON) return PublicKeyCredential.parseCreationOptionsFromJSON(json);
  return {
    ...json,
    challenge: bytes(json.challenge),
    user: { ...json.user, id: bytes(json.user.id) },
    excludeCredentials: (json.excludeCredentials ?? []).map((c) => ({ ...c, id: bytes(c.id) })),
  };
}

function requestOptions(json) {
  if (PublicKeyCredential.parseRequestOptionsFromJSON) return PublicKeyCredential.parseRequestOptionsFromJSON(json);
  return { ...json, challenge: bytes(json.challenge), allowCredentials: (json.allowCredentials ?? []).map((c) => ({ ...c, id: bytes(c.id) })) };
}

function answer(credential) {
  if (typeof credential.toJSON === "function") return credential.toJSON();
  const response = {};
  for (const name of ["clientDataJSON", "attestationObject", "authenticatorData", "signature", "userHandle"]) {
    if (credential.response[name]) response[name] = text(credential.response[name]);
  }
  if (credential.response.getTransports) response.transports = credential.response.getTransports();
  return { id: credential.id, rawId: text(credential.rawId), type: credential.type, response, clientExtensionResults: credential.getClientExtensionResults(), authenticatorAttachment: credential.authenticatorAttachment ?? undefined };
}

/** Make a passkey from the server's creation options; its answer as JSON. */
export async function makePasskey(options) {
  return answer(await navigator.credentials.create({ publicKey: creationOptions(options) }));
}

/** Sign a challenge with any passkey of this site; the answer as JSON. */
export async function usePasskey(options) {
  return answer(await navigator.credentials.get({ publicKey: requestOptions(options) }));
}
