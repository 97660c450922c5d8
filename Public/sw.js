// The service worker: the app shell for offline use, and each person's last attestation, kept on
// this device only. Everything else goes to the network untouched.
"use strict";

const COQUILLE = "coquille-v1";
const ATTESTATIONS = "attestations-v1";
const FICHIERS_COQUILLE = [
  "/",
  "/app.css",
  "/app.js",
  "/manifest.webmanifest",
  "/icone.svg",
  "/icones/icone-192.png",
];

self.addEventListener("install", (evenement) => {
  evenement.waitUntil(
    caches.open(COQUILLE)
      .then((cache) => cache.addAll(FICHIERS_COQUILLE))
      .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (evenement) => {
  evenement.waitUntil(
    caches.keys()
      .then((noms) => Promise.all(noms.filter((n) => n !== COQUILLE && n !== ATTESTATIONS).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (evenement) => {
  const requete = evenement.request;
  const url = new URL(requete.url);
  if (requete.method !== "GET" || url.origin !== self.location.origin) return;

  const attestation = /^\/attestation\.(pdf|png)$/.exec(url.pathname);
  if (attestation) {
    evenement.respondWith(attestationFraiche(requete, url, attestation[1]));
    return;
  }
  const derniere = /^\/derniere-attestation\.(pdf|png)$/.exec(url.pathname);
  if (derniere) {
    evenement.respondWith(derniereAttestation(url.searchParams.get("t"), derniere[1]));
    return;
  }
  if (url.pathname === "/" || FICHIERS_COQUILLE.includes(url.pathname)) {
    evenement.respondWith(coquille(requete, url));
  }
});

const cleDerniere = (format, jeton) => `/derniere-attestation.${format}?t=${jeton}`;

/** The network first, so a new version shows at once; the cached copy when the server is out of reach. */
async function coquille(requete, url) {
  const cache = await caches.open(COQUILLE);
  try {
    const reponse = await fetch(requete);
    if (reponse.ok) await cache.put(url.pathname, reponse.clone());
    return reponse;
  } catch (erreur) {
    const copie = await cache.match(url.pathname);
    if (copie) return copie;
    throw erreur;
  }
}

/** A new attestation from the server, kept as this person's last one; the last one when offline. */
async function attestationFraiche(requete, url, format) {
  const jeton = url.searchParams.get("t");
  let reponse;
  try {
    reponse = await fetch(requete);
  } catch {
    return derniereAttestation(jeton, format);
  }
  if (reponse.ok && jeton) {
    const corps = await reponse.clone().blob();
    const copie = new Response(corps, {
      headers: {
        "Content-Type": reponse.headers.get("Content-Type") || "application/octet-stream",
        "Content-Disposition": reponse.headers.get("Content-Disposition") || "inline",
        "X-Enregistree-Le": new Date().toISOString(),
      },
    });
    try {
      const cache = await caches.open(ATTESTATIONS);
      await cache.put(cleDerniere(format, jeton), copie);
      for (const client of await self.clients.matchAll({ type: "window" })) {
        client.postMessage({ type: "attestation-enregistree", t: jeton });
      }
    } catch {
      // A full storage only means no offline copy this time.
    }
  }
  return reponse;
}

async function derniereAttestation(jeton, format) {
  const cache = await caches.open(ATTESTATIONS);
  const copie = jeton ? await cache.match(cleDerniere(format, jeton)) : undefined;
  if (copie) return copie;
  return new Response(
    "Hors ligne : aucune attestation de ce lien n’est enregistrée sur cet appareil. " +
    "Elle le sera dès que vous en aurez généré une avec du réseau.\n",
    { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}
