// The service worker: the app shell for offline use, and each person's last attestation, kept on
// this device only. Offline, a link to /attestation.pdf (a bookmark, a Shortcut) gets a fresh
// attestation made here from the person's offline template (kept by the page, cache
// `modeles-v1`), or else the last one. Everything else goes to the network untouched.
"use strict";

importScripts("/vendor/qrcode-generator.js", "/hors-ligne.js");

const COQUILLE = "coquille-v2";
const ATTESTATIONS = "attestations-v1";
const MODELES = "modeles-v1";
const FICHIERS_COQUILLE = [
  "/",
  "/app.css",
  "/app.js",
  "/hors-ligne.js",
  "/vendor/qrcode-generator.js",
  "/raccourcis.html",
  "/raccourcis.js",
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
      .then((noms) => Promise.all(noms.filter((n) => ![COQUILLE, ATTESTATIONS, MODELES].includes(n)).map((n) => caches.delete(n))))
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

/** When the server answered (its `Date` header), else now by this phone's clock. */
function dateDuServeur(reponse) {
  const date = new Date(reponse.headers.get("Date") || NaN);
  return isNaN(date) ? new Date() : date;
}

/** A new attestation from the server, kept as this person's last one; the last one when offline. */
async function attestationFraiche(requete, url, format) {
  const jeton = url.searchParams.get("t");
  let reponse;
  try {
    reponse = await fetch(requete);
  } catch {
    if (format === "pdf" && !url.searchParams.has("page")) {
      const creee = await creerHorsLigne(jeton, url);
      if (creee) return creee;
    }
    return derniereAttestation(jeton, format);
  }
  // The whole page as an image (`page=`) is not what "Ma dernière attestation" opens.
  if (reponse.ok && jeton && !url.searchParams.has("page")) {
    const corps = await reponse.clone().blob();
    const copie = new Response(corps, {
      headers: {
        "Content-Type": reponse.headers.get("Content-Type") || "application/octet-stream",
        "Content-Disposition": reponse.headers.get("Content-Disposition") || "inline",
        // The server's clock, which dated the document: the phone's may be days off (a server at
        // a date of 2021 made "Sortie le 28/11/2026" of a PDF of 20/03/2021, issue 40).
        "X-Enregistree-Le": dateDuServeur(reponse).toISOString(),
        // What was asked for, so the page can say when this one leaves and why.
        "X-Decalage": url.searchParams.get("offset") || "0",
        "X-A": url.searchParams.get("at") || "",
        "X-Motifs": url.searchParams.get("reasons") || "",
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

/** A fresh attestation made here, from the person's template and the last known clock gap;
 * null when there is no template or the request cannot be honoured offline. */
async function creerHorsLigne(jeton, url) {
  if (!jeton) return null;
  let modele;
  let ecart = 0;
  try {
    const cache = await caches.open(MODELES);
    const reponse = await cache.match(`/modele-hors-ligne?t=${jeton}`);
    if (!reponse) return null;
    modele = await reponse.json();
    const horloge = await cache.match("/horloge");
    if (horloge) ecart = Number((await horloge.json()).ecart) || 0;
  } catch {
    return null;
  }
  const maintenant = new Date(Date.now() + ecart);
  // Past the next change of form only the server can print the form in force: say so, rather
  // than an attestation on the old one (made now, or kept).
  const change = AttestationHorsLigne.changement(modele, maintenant);
  if (change) {
    return new Response(`Hors ligne : ${AttestationHorsLigne.messageChangement(change)}\n`,
      { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  }
  // A template not refreshed for a week no longer serves: the last attestation, if any, instead.
  if (!AttestationHorsLigne.utilisable(modele, maintenant)) return null;
  // A context other than the template's needs the server.
  const contexte = url.searchParams.get("context");
  if (contexte && modele.version && modele.version.context !== contexte) return null;
  let decalage = Number(url.searchParams.get("offset") || 0);
  const a = /^(\d\d):(\d\d)$/.exec(url.searchParams.get("at") || "");
  if (a) {
    const p = AttestationHorsLigne.parties(maintenant, modele.timeZone);
    decalage = (Number(a[1]) - p.heure) * 60 + (Number(a[2]) - p.minute);
  }
  const motifs = (url.searchParams.get("reasons") || "").split(",").filter(Boolean);
  // Without `context` the exit hour decides, as on the server: a daytime template does not
  // print an exit at 20h; only the server has the other form.
  const autre = contexte ? null : AttestationHorsLigne.autreContexte(modele, new Date(maintenant.getTime() + decalage * 60000));
  if (autre) {
    return new Response(`Hors ligne : ${AttestationHorsLigne.messageContexte(modele, autre)}\n`,
      { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  }
  let resultat;
  try {
    resultat = AttestationHorsLigne.creer(modele, {
      maintenant, decalage, motifs: motifs.length > 0 ? motifs : modele.defaultReasons, contexteChoisi: Boolean(contexte),
    });
  } catch (erreur) {
    return new Response(`Hors ligne : ${erreur.message}\n`,
      { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  }
  const entetes = {
    "Content-Type": "application/pdf",
    "Content-Disposition": `inline; filename="${resultat.nom}"`,
    "Cache-Control": "no-store",
  };
  try {
    const cache = await caches.open(ATTESTATIONS);
    await cache.put(cleDerniere("pdf", jeton), new Response(resultat.pdf, {
      headers: { ...entetes, "X-Enregistree-Le": resultat.creee.toISOString(), "X-Decalage": String(decalage),
        "X-Motifs": resultat.motifs.join(",") },
    }));
  } catch {
    // A full storage only means no copy kept this time.
  }
  return new Response(resultat.pdf, { status: 200, headers: entetes });
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
