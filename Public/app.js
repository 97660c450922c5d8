// The personal page and the home page. Plain JavaScript, no framework, nothing loaded from
// elsewhere. What is kept on the device: the people's links, their details for offline use and
// their last reasons (localStorage), each person's last attestation (the service worker's cache),
// each person's offline template (cache `modeles-v1`, from /api/v1/template: hors-ligne.js
// makes attestations from it without the network), each person's chosen context and the last
// version of the form they saw, and the last known gap between this device's clock and the
// server's.
"use strict";

(() => {
  const STOCKAGE = "attestation.personnes.v1";
  const CACHE_ATTESTATIONS = "attestations-v1";
  const CACHE_MODELES = "modeles-v1";
  const HORLOGE = "attestation.horloge.v1";
  const PAS = 5;
  const JETON = /^[A-Za-z0-9_-]{8,2000}$/;

  const $ = (id) => document.getElementById(id);

  const etat = {
    jeton: null,
    lien: null, // what /api/v1/link said, or the copy kept on the device when offline
    decalage: 0, // minutes from now, as the `offset` parameter
    sortieChoisie: null, // when `decalage` was chosen (Date.now()), for DUREE_SORTIE
    ecartHorloge: 0, // server clock minus this device's, so the time shown is the one printed
    horsLigne: false,
    modele: null, // the offline template of this link (/api/v1/template), when kept
    chargementModele: null, // the request for it, while under way
    motifsAConfirmer: false, // the link's reasons lost one in the form in force: the person chooses first
    changement: null, // offline, the instant the kept template's form stopped being in force
  };

  // People on this device ------------------------------------------------------------------

  function lirePersonnes() {
    try {
      const liste = JSON.parse(localStorage.getItem(STOCKAGE) || "[]");
      return Array.isArray(liste) ? liste.filter((p) => p && typeof p.t === "string" && JETON.test(p.t)) : [];
    } catch {
      return [];
    }
  }

  function ecrirePersonnes(liste) {
    try {
      localStorage.setItem(STOCKAGE, JSON.stringify(liste));
    } catch {
      // Private browsing or a full storage: the page works, it only forgets.
    }
  }

  function personne(jeton) {
    return lirePersonnes().find((p) => p.t === jeton) || null;
  }

  /** Keeps (or refreshes) the opened link and what the page needs to work without the server. */
  function memoriser(lien) {
    const liste = lirePersonnes();
    const infos = {
      firstName: lien.firstName,
      displayName: lien.displayName,
      form: lien.form,
      version: lien.version || null,
      defaultReasons: lien.defaultReasons,
      missingReasons: lien.missingReasons || [],
      lockReasons: lien.lockReasons,
      timeZone: lien.timeZone,
      offsetBounds: lien.offsetBounds,
      expires: lien.expires || null,
    };
    const existante = liste.find((p) => p.t === etat.jeton);
    if (existante) {
      existante.infos = infos;
    } else {
      liste.push({ t: etat.jeton, infos, motifs: null });
    }
    ecrirePersonnes(liste);
  }

  /** Changes this person's record on the device (kept with their link). */
  function modifierPersonne(modification) {
    const liste = lirePersonnes();
    const p = liste.find((q) => q.t === etat.jeton);
    if (!p) return;
    modification(p);
    ecrirePersonnes(liste);
  }

  /** The reasons chosen, and the form they were chosen in (a choice made in an earlier form does
   * not answer « choisissez vos motifs » for the one in force). */
  function memoriserMotifs(motifs) {
    modifierPersonne((p) => {
      p.motifs = motifs;
      p.motifsFormulaire = etat.lien && etat.lien.form ? etat.lien.form.id : null;
    });
  }

  function nomAffiche(p) {
    return (p.infos && p.infos.displayName) || "Personne sans nom";
  }

  function afficherPersonnes() {
    const liste = lirePersonnes();
    const nav = $("personnes");
    const ul = $("personnes-liste");
    ul.replaceChildren();
    nav.hidden = liste.length === 0 && !etat.jeton;
    liste.forEach((p, i) => {
      const li = document.createElement("li");
      const a = lienPersonne(p);
      a.className = "personne";
      li.append(a,
        petitBouton("monter", "↑", `Monter ${nomAffiche(p)} dans la liste`, i === 0, () => deplacer(i, -1)),
        petitBouton("descendre", "↓", `Descendre ${nomAffiche(p)} dans la liste`, i === liste.length - 1, () => deplacer(i, 1)),
        petitBouton("retirer", "✕", `Retirer ${nomAffiche(p)} de cet appareil`, false, () => retirer(p)));
      ul.append(li);
    });

    const puces = $("personnes-puces");
    puces.replaceChildren();
    puces.hidden = liste.length < 2 || !etat.jeton;
    for (const p of liste) {
      const li = document.createElement("li");
      li.append(lienPersonne(p));
      puces.append(li);
    }
  }

  function lienPersonne(p) {
    const a = document.createElement("a");
    a.href = "/?t=" + p.t;
    a.textContent = nomAffiche(p);
    if (p.t === etat.jeton) a.setAttribute("aria-current", "page");
    return a;
  }

  function petitBouton(classe, signe, libelle, desactive, action) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = `bouton secondaire petit ${classe}`;
    b.textContent = signe;
    b.setAttribute("aria-label", libelle);
    b.title = libelle;
    b.disabled = desactive;
    b.addEventListener("click", action);
    return b;
  }

  function deplacer(index, sens) {
    const liste = lirePersonnes();
    const cible = index + sens;
    if (cible < 0 || cible >= liste.length) return;
    [liste[index], liste[cible]] = [liste[cible], liste[index]];
    ecrirePersonnes(liste);
    afficherPersonnes();
    // Keep the focus on the moved person, or on its other arrow once it reaches an end.
    const boutons = $("personnes-liste").children[cible].querySelectorAll("button");
    const suivant = sens < 0 ? boutons[0] : boutons[1];
    (suivant.disabled ? (sens < 0 ? boutons[1] : boutons[0]) : suivant).focus();
  }

  function retirer(p) {
    const nom = nomAffiche(p);
    if (!window.confirm(`Retirer ${nom} de cet appareil ? Son lien reste valable ailleurs ; sa dernière attestation enregistrée ici sera effacée.`)) return;
    ecrirePersonnes(lirePersonnes().filter((q) => q.t !== p.t));
    oublierAttestations(p.t);
    if (p.t === etat.jeton) {
      location.href = "/";
      return;
    }
    afficherPersonnes();
    $("titre-personnes").setAttribute("tabindex", "-1");
    $("titre-personnes").focus();
  }

  function jetonDe(texte) {
    const brut = texte.trim();
    if (JETON.test(brut)) return brut;
    try {
      const t = new URL(brut, location.href).searchParams.get("t");
      return t && JETON.test(t) ? t : null;
    } catch {
      return null;
    }
  }

  function ajouter(evenement) {
    evenement.preventDefault();
    const champ = $("ajout-lien");
    const jeton = jetonDe(champ.value);
    if (!jeton) {
      $("ajout-erreur").textContent = "Lien non reconnu : collez le lien complet reçu de votre administrateur (il contient « ?t= »).";
      champ.setAttribute("aria-invalid", "true");
      champ.focus();
      return;
    }
    location.href = "/?t=" + jeton;
  }

  // The last attestation of each person, kept by the service worker -------------------------

  const cleDerniere = (format, jeton) => `/derniere-attestation.${format}?t=${jeton}`;

  async function derniereAttestation(jeton) {
    if (!("caches" in window)) return null;
    try {
      const cache = await caches.open(CACHE_ATTESTATIONS);
      return (await cache.match(cleDerniere("pdf", jeton))) || null;
    } catch {
      return null;
    }
  }

  function oublierAttestations(jeton) {
    if (!("caches" in window)) return;
    caches.open(CACHE_ATTESTATIONS)
      .then((cache) => Promise.all(["pdf", "png"].map((f) => cache.delete(cleDerniere(f, jeton)))))
      .catch(() => {});
    caches.open(CACHE_MODELES).then((cache) => cache.delete(cleModele(jeton))).catch(() => {});
  }

  /** When the kept attestation says its person leaves, from what the service worker noted of
   * its request (`offset` or `at`) and when it was made. */
  function sortieDe(reponse, creee) {
    const heure = /^(\d\d):(\d\d)$/.exec(reponse.headers.get("X-A") || "");
    if (heure) {
      const p = parties(creee);
      return { jour: `${p.day}/${p.month}/${p.year}`, heure: `${Number(heure[1])}\u00a0h\u00a0${heure[2]}`, date: null };
    }
    const decalage = Number(reponse.headers.get("X-Decalage") || 0);
    return { date: new Date(creee.getTime() + (Number.isFinite(decalage) ? decalage : 0) * 60000) };
  }

  function libellesMotifs(codes) {
    const formulaire = etat.lien && etat.lien.form;
    return codes.map((code) => {
      const motif = formulaire && formulaire.reasons.find((r) => r.code === code);
      return motif ? motif.shortLabel || code : code;
    }).join(", ");
  }

  async function afficherDerniere() {
    const bloc = $("derniere-bloc");
    const reponse = etat.jeton ? await derniereAttestation(etat.jeton) : null;
    if (!reponse) {
      bloc.hidden = true;
      return;
    }
    $("derniere").href = cleDerniere("pdf", etat.jeton);
    const creee = new Date(reponse.headers.get("X-Enregistree-Le") || reponse.headers.get("Date") || NaN);
    if (isNaN(creee)) {
      $("derniere-details").textContent = "";
      $("derniere-date").textContent = "";
      $("derniere-perimee").hidden = true;
      bloc.classList.remove("ancienne");
      bloc.hidden = false;
      return;
    }
    const motifsNotes = (reponse.headers.get("X-Motifs") || "").split(",").filter(Boolean);
    const motifs = motifsNotes.length > 0 ? motifsNotes : (etat.lien ? etat.lien.defaultReasons : []);
    const sortie = sortieDe(reponse, creee);
    const quand = sortie.date ? jourEtHeure(sortie.date) : `le ${sortie.jour} à ${sortie.heure}`;
    $("derniere-details").textContent = `Sortie ${quand}` + (motifs.length ? ` · ${libellesMotifs(motifs)}` : "");
    $("derniere-date").textContent = `Créée ${jourEtHeure(creee)}.`;
    // Shown in a hurry, an old one is a fine: one not made today, or made on a form no longer in
    // force, looks it.
    const ancienFormulaire = etat.changement !== null && creee < etat.changement;
    const ancienne = ancienFormulaire || !jourEtHeure(creee).startsWith("aujourd’hui");
    $("derniere-perimee").textContent = ancienFormulaire
      ? "Elle est de l’ancien formulaire : ne la montrez pas, générez-en une nouvelle avec du réseau."
      : "Elle n’est pas d’aujourd’hui : ne la montrez pas, générez-en une nouvelle.";
    $("derniere-perimee").hidden = !ancienne;
    bloc.classList.toggle("ancienne", ancienne);
    bloc.hidden = false;
  }

  // The offline template, kept on the device -------------------------------------------------

  const cleModele = (jeton) => `/modele-hors-ligne?t=${jeton}`;

  /** The kept template, when it may still serve (a week after the server gave it, and never
   * past the next change of form: `etat.changement` then says when the form changed). */
  async function lireModele(jeton) {
    if (!("caches" in window)) return null;
    try {
      const reponse = await (await caches.open(CACHE_MODELES)).match(cleModele(jeton));
      const modele = reponse ? await reponse.json() : null;
      return modele && !formulaireChange(modele) && AttestationHorsLigne.utilisable(modele, maintenant()) ? modele : null;
    } catch {
      return null;
    }
  }

  /** Whether the template's form is no longer in force (noted in `etat.changement`). */
  function formulaireChange(modele) {
    const change = AttestationHorsLigne.changement(modele, maintenant());
    if (change) etat.changement = change;
    return change !== null;
  }

  /** Asks the server for this link's template and keeps it; the page can then make attestations
   * without the network. A failure only means no offline making yet. */
  async function chargerModele() {
    try {
      const reponse = await fetch(`/api/v1/template?t=${etat.jeton}${parametreContexte()}`, { cache: "no-store", credentials: "omit" });
      if (!reponse.ok) return;
      const modele = await reponse.json();
      if (!modele || modele.format !== 1) return;
      // The person switched context meanwhile: this template prints the other one.
      if (modele.version && (modele.version.context || null) !== contexteEnVigueur()) return;
      // Without a cache (a page not served over HTTPS) it still draws the officer view's code.
      etat.modele = modele;
      if (!("caches" in window)) return;
      const cache = await caches.open(CACHE_MODELES);
      await cache.put(cleModele(etat.jeton), new Response(JSON.stringify(modele), {
        headers: { "Content-Type": "application/json", "X-Enregistre-Le": new Date().toISOString() },
      }));
      document.documentElement.dataset.modele = "pret";
    } catch {
      // Offline or a full storage: the page goes on with the server.
    }
  }

  /** The gap between this device's clock and the server's, kept for offline use (the service
   * worker reads it from the cache: it has no localStorage). */
  function memoriserHorloge(ecart) {
    try {
      localStorage.setItem(HORLOGE, String(ecart));
    } catch {
      // Forgotten: the device's own clock is used.
    }
    if ("caches" in window) {
      caches.open(CACHE_MODELES)
        .then((cache) => cache.put("/horloge", new Response(JSON.stringify({ ecart }), { headers: { "Content-Type": "application/json" } })))
        .catch(() => {});
    }
  }

  function horlogeMemorisee() {
    try {
      const ecart = Number(localStorage.getItem(HORLOGE));
      return Number.isFinite(ecart) ? ecart : 0;
    } catch {
      return 0;
    }
  }

  /** Keeps an attestation as this person's last one, with what the page shows of it; the
   * moment this device received it (`X-Recue-Le`, its own clock) tells a later « Montrer à
   * l’agent » that it was made in this visit. */
  async function garderDerniere(pdf, disposition, creee, decalage, motifs) {
    if (!("caches" in window)) return;
    try {
      const cache = await caches.open(CACHE_ATTESTATIONS);
      await cache.put(cleDerniere("pdf", etat.jeton), new Response(pdf, {
        headers: {
          "Content-Type": "application/pdf",
          "Content-Disposition": disposition,
          "X-Enregistree-Le": creee.toISOString(),
          "X-Recue-Le": new Date().toISOString(),
          "X-Decalage": String(decalage),
          "X-Motifs": motifs.join(","),
        },
      }));
    } catch {
      // A full storage only means no copy kept this time.
    }
  }

  /** Makes the attestation on this device for the page's choices and keeps it as the last one. */
  async function creerIci() {
    const resultat = AttestationHorsLigne.creer(etat.modele, {
      maintenant: maintenant(), decalage: etat.decalage, motifs: motifsChoisis(), contexteChoisi: contexteChoisi(),
    });
    noterFaite();
    await garderDerniere(new Blob([resultat.pdf], { type: "application/pdf" }), `inline; filename="${resultat.nom}"`,
      resultat.creee, etat.decalage, resultat.motifs);
    return resultat;
  }

  function telecharger(fichier, nom) {
    const url = URL.createObjectURL(fichier);
    const lien = document.createElement("a");
    lien.href = url;
    lien.download = nom;
    lien.hidden = true;
    document.body.append(lien);
    lien.click();
    lien.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
  }

  /** Offline, « Générer » (the PDF) or « QR code » (its code as a PNG, as the server would give
   * it): made on this device, kept as the last attestation, and handed over. */
  async function genererHorsLigne(format) {
    const erreur = $("generation-erreur");
    erreur.hidden = true;
    let resultat;
    try {
      resultat = await creerIci();
    } catch (e) {
      erreur.textContent = `Attestation impossible hors ligne : ${e.message}`;
      erreur.hidden = false;
      return;
    }
    if (format === "png") {
      telecharger(await pngQR(resultat.charge), resultat.nom.replace(/\.pdf$/, ".png"));
    } else {
      telecharger(new Blob([resultat.pdf], { type: "application/pdf" }), resultat.nom);
    }
    afficherDerniere();
  }

  // The attestation's QR code, drawn here ------------------------------------------------------

  /** The QR code of a payload, as the PDF's (level M, byte mode), at the smallest version that
   * holds it: the largest modules on the screen. */
  function codeQR(charge) {
    const qr = qrcode(0, "M");
    qr.addData(charge, "Byte");
    qr.make();
    return qr;
  }

  // The quiet zone a reader needs around the code, in modules.
  const MARGE_QR = 4;

  /** The code as an SVG image: black modules on white, its quiet zone included, sharp at any size. */
  function imageQR(charge) {
    const qr = codeQR(charge);
    const n = qr.getModuleCount();
    const cote = n + 2 * MARGE_QR;
    let chemin = "";
    for (let rang = 0; rang < n; rang++) {
      for (let colonne = 0; colonne < n; colonne++) {
        if (qr.isDark(rang, colonne)) chemin += `M${colonne + MARGE_QR} ${rang + MARGE_QR}h1v1h-1z`;
      }
    }
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${cote} ${cote}" width="${cote * 8}" height="${cote * 8}" shape-rendering="crispEdges">`
      + `<rect width="${cote}" height="${cote}" fill="#fff"/><path d="${chemin}" fill="#000"/></svg>`;
    return "data:image/svg+xml," + encodeURIComponent(svg);
  }

  /** The code as a PNG file, 8 pixels a module. */
  function pngQR(charge) {
    const qr = codeQR(charge);
    const n = qr.getModuleCount();
    const echelle = 8;
    const toile = document.createElement("canvas");
    toile.width = toile.height = (n + 2 * MARGE_QR) * echelle;
    const dessin = toile.getContext("2d");
    dessin.fillStyle = "#fff";
    dessin.fillRect(0, 0, toile.width, toile.height);
    dessin.fillStyle = "#000";
    for (let rang = 0; rang < n; rang++) {
      for (let colonne = 0; colonne < n; colonne++) {
        if (qr.isDark(rang, colonne)) dessin.fillRect((colonne + MARGE_QR) * echelle, (rang + MARGE_QR) * echelle, echelle, echelle);
      }
    }
    return new Promise((resolve, reject) => toile.toBlob((b) => (b ? resolve(b) : reject(new Error("image impossible"))), "image/png"));
  }

  // « Montrer à l’agent » -------------------------------------------------------------------------

  // The tab's note of an attestation made in this visit (sessionStorage: a reload after the
  // PDF keeps it, a new opening of the page does not).
  const FAITE = "attestation.faite.v1";

  function noterFaite() {
    try {
      sessionStorage.setItem(FAITE, JSON.stringify({ t: etat.jeton, depuis: Date.now() }));
    } catch {
      // Forgotten: the view makes a new one.
    }
  }

  /** The choices changed: the next view shows an attestation of the new ones. */
  function oublierFaite() {
    try {
      sessionStorage.removeItem(FAITE);
    } catch {
      // Nothing kept.
    }
  }

  function faiteDepuis() {
    try {
      const note = JSON.parse(sessionStorage.getItem(FAITE) || "null");
      return note && note.t === etat.jeton && Number.isFinite(note.depuis) ? note.depuis : null;
    } catch {
      return null;
    }
  }

  /** This link's template, waiting for the one the page is asking the server for. One whose
   * form is no longer in force (the page stayed open across a change) is asked again online,
   * and never used offline. */
  async function modelePret() {
    if (!etat.modele && etat.chargementModele) await etat.chargementModele;
    if (etat.modele && formulaireChange(etat.modele)) {
      etat.modele = null;
      if (!etat.horsLigne) {
        etat.chargementModele = chargerModele();
        await etat.chargementModele;
      }
    }
    if (!etat.modele) etat.modele = await lireModele(etat.jeton);
    return etat.modele;
  }

  /**
   * An attestation made elsewhere (the server, the service worker), rebuilt from the template
   * for what its file name says (`attestation-2020-11-28_08-15.pdf`: the minute it was made, in
   * the link's time zone) and what was asked: the same values, so the same QR payload.
   * `environ` is a moment near its making, which places that wall-clock minute in time.
   */
  function refaire(modele, disposition, environ, decalage, motifs, a) {
    const nom = /filename="attestation-(\d{4})-(\d\d)-(\d\d)_(\d\d)-(\d\d)\.pdf"/.exec(disposition || "");
    if (!nom) return null;
    const [annee, mois, jour, heure, minute] = nom.slice(1).map(Number);
    const p = AttestationHorsLigne.parties(environ, modele.timeZone);
    const ecart = Date.UTC(annee, mois - 1, jour, heure, minute) - Date.UTC(p.annee, p.mois - 1, p.jour, p.heure, p.minute);
    const creee = new Date(Math.floor(environ.getTime() / 60000) * 60000 + ecart + 30000);
    const heureA = /^(\d\d):(\d\d)$/.exec(a || "");
    const sortie = heureA ? (Number(heureA[1]) - heure) * 60 + (Number(heureA[2]) - minute) : decalage;
    // The server chose the context of what it made: the same one, whatever the hour.
    return AttestationHorsLigne.creer(modele, {
      maintenant: creee, decalage: sortie, motifs: motifs.length > 0 ? motifs : modele.defaultReasons, contexteChoisi: true,
    });
  }

  /** The last attestation kept, when it was made in this visit and today. */
  async function faiteCetteVisite(modele) {
    const depuis = faiteDepuis();
    const reponse = depuis === null ? null : await derniereAttestation(etat.jeton);
    if (!reponse) return null;
    const recue = Date.parse(reponse.headers.get("X-Recue-Le") || reponse.headers.get("X-Enregistree-Le") || "");
    if (isNaN(recue) || recue < depuis) return null;
    const entetes = reponse.headers;
    const fiche = refaire(modele, entetes.get("Content-Disposition"), new Date(recue + etat.ecartHorloge),
      Number(entetes.get("X-Decalage") || 0), (entetes.get("X-Motifs") || "").split(",").filter(Boolean), entetes.get("X-A"));
    return fiche && jourEtHeure(fiche.creee).startsWith("aujourd’hui") ? fiche : null;
  }

  /** A new attestation from the server, as « Générer » would get it (kept as the last one by the
   * service worker, or here when none runs); null when the server is out of reach. */
  async function faiteParLeServeur(modele) {
    noterFaite();
    let reponse;
    try {
      reponse = await fetch(requete("pdf"), { cache: "no-store", credentials: "omit" });
    } catch {
      return null;
    }
    // The service worker's copy of an older one, given when it could make none: not this one.
    if (reponse.headers.has("X-Enregistree-Le")) return null;
    if (!reponse.ok) {
      const texte = (await reponse.text()).trim();
      throw new Error(texte || `le serveur a répondu ${reponse.status}.`);
    }
    const disposition = reponse.headers.get("Content-Disposition");
    const fiche = refaire(modele, disposition, maintenant(), etat.decalage, motifsChoisis(), null);
    if (!fiche) throw new Error("le serveur a donné un document inattendu.");
    if (!navigator.serviceWorker || !navigator.serviceWorker.controller) {
      await garderDerniere(await reponse.blob(), disposition, fiche.creee, etat.decalage, fiche.motifs);
    }
    return fiche;
  }

  /** What the view shows: the attestation just made, or one made now for the page's choices
   * (by the server when it answers, as « Générer » would; on this device otherwise). */
  async function ficheAMontrer() {
    const modele = await modelePret();
    if (!modele && etat.horsLigne && etat.changement) {
      throw new Error(AttestationHorsLigne.messageChangement(etat.changement));
    }
    if (!modele) {
      throw new Error(etat.horsLigne
        ? "ce téléphone n’a pas encore de quoi créer une attestation pour ce lien : ouvrez cette page une fois avec du réseau."
        : "le serveur n’a pas donné de quoi dessiner le QR code. Réessayez.");
    }
    return (await faiteCetteVisite(modele)) || (!etat.horsLigne && (await faiteParLeServeur(modele))) || creerIci();
  }

  /** The name as the attestation prints it (the offline template's, accents and all; for a
   * template kept before the server gave it, the QR payload's Prenom and Nom, folded to ASCII),
   * else the name the page shows. */
  function nomDe(charge) {
    if (etat.modele && etat.modele.fullName) return etat.modele.fullName;
    const champs = {};
    for (const ligne of charge.split(";\n")) {
      const [libelle, ...reste] = ligne.split(": ");
      champs[libelle] = reste.join(": ");
    }
    const nom = [champs.Prenom, champs.Nom].filter(Boolean).join(" ");
    return nom || nomAffiche({ infos: etat.lien });
  }

  function dateEtHeure(date) {
    const p = parties(date);
    return { jour: `${p.day}/${p.month}/${p.year}`, heure: `${p.hour}:${p.minute}` };
  }

  function remplirVue(fiche) {
    const nom = nomDe(fiche.charge);
    const sortie = dateEtHeure(fiche.sortie);
    const creee = dateEtHeure(fiche.creee);
    const image = $("agent-qr");
    image.src = imageQR(fiche.charge);
    image.alt = `QR code de l’attestation de ${nom}, sortie le ${sortie.jour} à ${sortie.heure}`;
    $("agent-nom").textContent = nom;
    $("agent-sortie").textContent = `Sortie le ${sortie.jour} à ${sortie.heure}`;
    // Which situation this attestation is for, where the version has several.
    const contexte = contexteMontre();
    $("agent-situation").textContent = contexte ? `Situation : ${contexte.name}` : "";
    $("agent-situation").hidden = !contexte;
    const motifs = $("agent-motifs");
    motifs.replaceChildren(...fiche.motifs.map((code) => {
      const li = document.createElement("li");
      li.textContent = libellesMotifs([code]);
      return li;
    }));
    $("agent-creee").textContent = `Créée le ${creee.jour} à ${creee.heure}`;
    $("agent-attente").hidden = true;
    $("agent-contenu").hidden = false;
  }

  const vue = { retourFocus: null, verrouEcran: null };

  /** The screen stays on while the officer reads it, where the browser allows. */
  async function garderEcranAllume() {
    if (!("wakeLock" in navigator) || document.visibilityState !== "visible" || vue.verrouEcran) return;
    try {
      const verrou = await navigator.wakeLock.request("screen");
      if ($("vue-agent").open) vue.verrouEcran = verrou;
      else verrou.release().catch(() => {});
    } catch {
      // Refused (battery saver, no permission): the screen may go dark, nothing else changes.
    }
  }

  function relacherEcran() {
    if (vue.verrouEcran) vue.verrouEcran.release().catch(() => {});
    vue.verrouEcran = null;
  }

  async function ouvrirVue(evenement) {
    const bouton = evenement.currentTarget;
    if (bouton.getAttribute("aria-disabled") === "true") {
      montrerCeQuiManque();
      return;
    }
    const dialogue = $("vue-agent");
    if (dialogue.open) return;
    vue.retourFocus = bouton;
    $("agent-attente").hidden = false;
    $("agent-erreur").hidden = true;
    $("agent-contenu").hidden = true;
    dialogue.showModal();
    $("agent-fermer").focus();
    // The back button closes the view, as on any full screen of a phone.
    history.pushState({ vueAgent: true }, "");
    garderEcranAllume();
    let fiche;
    try {
      fiche = await ficheAMontrer();
    } catch (e) {
      $("agent-attente").hidden = true;
      $("agent-erreur").textContent = `Attestation impossible : ${e.message}`;
      $("agent-erreur").hidden = false;
      return;
    }
    if (!dialogue.open) return;
    remplirVue(fiche);
    afficherDerniere();
  }

  /** « Fermer » or Escape: back in history, which closes the view (popstate). */
  function demanderFermeture() {
    if (history.state && history.state.vueAgent) history.back();
    else fermerVue();
  }

  function fermerVue() {
    const dialogue = $("vue-agent");
    if (dialogue.open) dialogue.close();
    relacherEcran();
    if (vue.retourFocus && document.contains(vue.retourFocus)) vue.retourFocus.focus();
    vue.retourFocus = null;
  }

  // Time, in the link's time zone ---------------------------------------------------------------

  function fuseau() {
    return (etat.lien && etat.lien.timeZone) || "Europe/Paris";
  }

  function parties(date) {
    const morceaux = new Intl.DateTimeFormat("fr-FR", {
      timeZone: fuseau(), year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23",
    }).formatToParts(date);
    const p = {};
    for (const m of morceaux) p[m.type] = m.value;
    return p;
  }

  function heure(date) {
    const p = parties(date);
    return `${Number(p.hour)}\u00a0h\u00a0${p.minute}`;
  }

  /** "aujourd’hui à 20 h 18", "hier à 23 h 50", or "le 21/11 à 8 h 05", in the link's time zone. */
  function jourEtHeure(date, reference = maintenant()) {
    const p = parties(date);
    const jour = (d) => Date.UTC(Number(d.year), Number(d.month) - 1, Number(d.day));
    const ecart = Math.round((jour(p) - jour(parties(reference))) / 86400000);
    const nom = { "-1": "hier", 0: "aujourd’hui", 1: "demain" }[ecart] || `le ${p.day}/${p.month}/${p.year}`;
    return `${nom} à ${heure(date)}`;
  }

  function duree(minutes) {
    const h = Math.floor(minutes / 60);
    const m = minutes % 60;
    // No line break inside "20 min" or "1 h 20".
    if (h === 0) return `${m}\u00a0min`;
    return m === 0 ? `${h}\u00a0h` : `${h}\u00a0h\u00a0${String(m).padStart(2, "0")}`;
  }

  function maintenant() {
    return new Date(Date.now() + etat.ecartHorloge);
  }

  function texteSortie() {
    const now = maintenant();
    const sortie = new Date(now.getTime() + etat.decalage * 60000);
    const quand = jourEtHeure(sortie, now);
    const moment = quand.startsWith("aujourd’hui ") ? quand.slice("aujourd’hui ".length) : quand;
    if (etat.decalage === 0) return `Sortie maintenant, ${moment}`;
    if (etat.decalage < 0) return `Sortie ${moment}, il y a ${duree(-etat.decalage)}`;
    return `Sortie ${moment}, dans ${duree(etat.decalage)}`;
  }

  /** The exit time in figures, `14:05`, as the attestation prints it. */
  function chiffresSortie() {
    const p = parties(new Date(maintenant().getTime() + etat.decalage * 60000));
    return `${p.hour}:${p.minute}`;
  }

  function majSortie() {
    $("sortie-texte").textContent = texteSortie();
    $("sortie-chiffres").textContent = chiffresSortie();
    for (const bouton of document.querySelectorAll("[data-decalage]")) {
      const decalage = Number(bouton.dataset.decalage);
      bouton.setAttribute("aria-pressed", String(etat.decalage === decalage));
      bouton.disabled = decalage < etat.lien.offsetBounds.minimum;
    }
    const bornes = etat.lien.offsetBounds;
    $("sortie-moins").disabled = etat.decalage - PAS < bornes.minimum;
    $("sortie-plus").disabled = etat.decalage + PAS > bornes.maximum;
    $("sortie-maintenant").disabled = etat.decalage === 0;
    const limite = etat.decalage - PAS < bornes.minimum
      ? `Au plus ${duree(-bornes.minimum)} avant maintenant.`
      : etat.decalage + PAS > bornes.maximum ? `Au plus ${duree(bornes.maximum)} après maintenant.` : "";
    $("sortie-limites").textContent = limite;
  }

  // The exit chosen in this tab (sessionStorage), for the page as it comes back: Firefox reloads
  // it on Back from the PDF, and it said "Sortie maintenant" while the person had chosen "il y a
  // 20 min" and the last attestation showed it (issue 29). Kept as minutes from now, as shown,
  // with when it was chosen: only Back and a reload bring it back, and only for
  // DUREE_SORTIE. Restored on every load, a tab opened again two days later still said "il y a
  // 20 min", and its QR code told the officer so (issue 40).
  const SORTIE = "attestation.sortie.v1";
  const DUREE_SORTIE = 30 * 60000;

  function garderSortie() {
    etat.sortieChoisie = Date.now();
    try {
      sessionStorage.setItem(SORTIE, JSON.stringify({ t: etat.jeton, decalage: etat.decalage, depuis: etat.sortieChoisie }));
    } catch {
      // Not kept: the page comes back at "maintenant", and says so.
    }
  }

  /** Whether this page was loaded by Back (or Forward) or a reload, not opened anew. */
  function retourOuRechargement() {
    try {
      const navigation = performance.getEntriesByType("navigation")[0];
      return !!navigation && (navigation.type === "back_forward" || navigation.type === "reload");
    } catch {
      return false;
    }
  }

  /** Whether a choice made at `depuis` (the phone's clock) still holds. */
  const sortieEncoreValable = (depuis) => Number.isFinite(depuis) && depuis <= Date.now() && Date.now() - depuis <= DUREE_SORTIE;

  /** The exit chosen in this tab for this link, within the link's bounds, when the page comes
   * back by Back or a reload soon after; 0 ("maintenant") for a new opening. */
  function sortieGardee(bornes) {
    try {
      const note = JSON.parse(sessionStorage.getItem(SORTIE) || "null");
      if (!retourOuRechargement()) {
        sessionStorage.removeItem(SORTIE);
        return 0;
      }
      if (!note || note.t !== etat.jeton || !Number.isFinite(note.decalage) || !sortieEncoreValable(note.depuis)) return 0;
      etat.sortieChoisie = note.depuis;
      return Math.min(bornes.maximum, Math.max(bornes.minimum, note.decalage));
    } catch {
      return 0;
    }
  }

  /** A page left open (or kept by the back-forward cache) past DUREE_SORTIE comes back at
   * "maintenant": the person who left 20 minutes ago then is not leaving 20 minutes ago now. */
  function expirerSortie() {
    if (!etat.lien || etat.decalage === 0 || sortieEncoreValable(etat.sortieChoisie)) return;
    etat.decalage = 0;
    try {
      sessionStorage.removeItem(SORTIE);
    } catch {
      // Nothing kept.
    }
    majSortie();
    majLiens();
  }

  function changerSortie(nouveau, bouton) {
    const bornes = etat.lien.offsetBounds;
    etat.decalage = Math.min(bornes.maximum, Math.max(bornes.minimum, nouveau));
    garderSortie();
    oublierFaite();
    majSortie();
    majLiens();
    $("annonce").textContent = $("sortie-texte").textContent;
    // A button that just became disabled would drop the focus to the page: keep it nearby.
    if (bouton.disabled) $("sortie-maintenant").disabled ? $("sortie-moins").focus() : $("sortie-maintenant").focus();
  }

  function choisirRetard(evenement) {
    const bouton = evenement.currentTarget;
    changerSortie(Number(bouton.dataset.decalage), bouton);
  }

  // Reasons -------------------------------------------------------------------------------------

  function afficherMotifs(choisis) {
    const liste = $("motifs-liste");
    liste.replaceChildren();
    // A locked link lists only its own reasons: the others could not be chosen anyway.
    const motifs = etat.lien.lockReasons
      ? etat.lien.form.reasons.filter((r) => choisis.includes(r.code))
      : etat.lien.form.reasons;
    for (const motif of motifs) {
      const id = `motif-${motif.code}`;
      const label = document.createElement("label");
      label.className = "motif";
      label.htmlFor = id;
      const case_ = document.createElement("input");
      case_.type = "checkbox";
      case_.name = "motif";
      case_.id = id;
      case_.value = motif.code;
      case_.checked = choisis.includes(motif.code);
      case_.disabled = etat.lien.lockReasons;
      case_.setAttribute("aria-labelledby", `${id}-titre`);
      case_.setAttribute("aria-describedby", `${id}-texte`);
      const textes = document.createElement("span");
      const titre = document.createElement("span");
      titre.className = "motif-titre";
      titre.id = `${id}-titre`;
      titre.textContent = `${motif.number}. ${motif.shortLabel || motif.code}`;
      const texte = document.createElement("span");
      texte.className = "motif-texte";
      texte.id = `${id}-texte`;
      texte.textContent = motif.label.replace(/\s*\n\s*/g, " ") + (motif.note ? " " + motif.note.replace(/\s*\n\s*/g, " ") : "");
      textes.append(titre, texte);
      label.append(case_, textes);
      liste.append(label);
    }
    $("motifs-verrou").hidden = !etat.lien.lockReasons;
    $("motifs-aide").hidden = etat.lien.lockReasons;
  }

  function motifsChoisis() {
    return [...document.querySelectorAll('input[name="motif"]:checked')].map((c) => c.value);
  }

  /** The person's last reasons when this form has them all, else the link's as the form in force
   * names them. */
  function motifsDeDepart(p) {
    return motifsGardes(p) || etat.lien.defaultReasons;
  }

  function motifsGardes(p) {
    const codes = new Set(etat.lien.form.reasons.map((r) => r.code));
    if (!etat.lien.lockReasons && p && Array.isArray(p.motifs) && p.motifs.length > 0 && p.motifs.every((c) => codes.has(c))) {
      return p.motifs;
    }
    return null;
  }

  const guillemets = (texte) => `« ${texte} »`;

  function enumeration(mots) {
    return mots.length < 2 ? mots.join("") : `${mots.slice(0, -1).join(", ")} et ${mots[mots.length - 1]}`;
  }

  /**
   * Reasons across versions: the link's default reasons that the form in force does not continue
   * (`missingReasons`) are never replaced silently. The page says which, and nothing is
   * generated until the person has chosen in this form (a tap on a reason, or « Garder ces
   * motifs »). A link that locks its reasons cannot be mended here: its administrator must.
   */
  function majMotifsManquants() {
    const manquants = (etat.lien && etat.lien.missingReasons) || [];
    const p = personne(etat.jeton);
    const choisiDansCeFormulaire = !!(p && p.motifsFormulaire === etat.lien.form.id && motifsGardes(p));
    etat.motifsAConfirmer = manquants.length > 0 && (etat.lien.lockReasons || !choisiDansCeFormulaire);
    const avis = $("motifs-manquants");
    avis.hidden = !etat.motifsAConfirmer;
    if (!etat.motifsAConfirmer) return;
    const noms = enumeration(manquants.map(guillemets));
    const un = manquants.length === 1;
    const version = etat.lien.version;
    const depuis = version ? ` (en vigueur depuis le ${version.startText})` : "";
    // With contexts, the reason may be in another one's form: say which form lacks it.
    const contexte = version && version.contexts && version.contexts.find((c) => c.id === version.context);
    const formulaire = contexte ? `le formulaire ${guillemets(contexte.name)}` : "le formulaire";
    $("motifs-manquants-texte").textContent = etat.lien.lockReasons
      ? `${un ? "Le motif" : "Les motifs"} ${noms} de votre lien ${un ? "n’existe" : "n’existent"} pas dans ${formulaire}`
        + `${depuis}, et votre administrateur a fixé les motifs de ce lien\u00a0: demandez-lui un nouveau lien.`
      : `${un ? "Votre motif habituel" : "Vos motifs habituels"} ${noms} ${un ? "n’existe" : "n’existent"} pas dans `
        + `${formulaire}${depuis}. Choisissez vos motifs ci-dessous${contexte ? ", ou une autre situation," : ""} avant de `
        + "générer l’attestation.";
    $("motifs-garder").hidden = etat.lien.lockReasons || motifsChoisis().length === 0;
  }

  /** The person chose (or kept) their reasons in the form in force. */
  function motifsConfirmes() {
    const avant = etat.motifsAConfirmer;
    memoriserMotifs(motifsChoisis());
    majMotifsManquants();
    majLiens();
    if (avant && !etat.motifsAConfirmer) $("annonce").textContent = "Motifs choisis : l’attestation peut être générée.";
  }

  // Contexts -------------------------------------------------------------------------------------

  /** The context the page's documents are asked in: the one the server showed, which is the
   * person's choice once made; null for a version of one form. */
  function contexteEnVigueur() {
    const version = etat.lien && etat.lien.version;
    return version && version.contexts && version.contexts.length > 0 ? version.context : null;
  }

  /** Whether the person chose the context shown (rather than the exit hour). */
  function contexteChoisi() {
    const p = personne(etat.jeton);
    return Boolean(p && p.contexte && p.contexte === contexteEnVigueur());
  }

  /** The context shown, as the version lists it ({id, name, hours, hoursText, area}). */
  function contexteMontre() {
    const version = etat.lien && etat.lien.version;
    const id = contexteEnVigueur();
    return id ? version.contexts.find((c) => c.id === id) || null : null;
  }

  /** Which situation the attestation is for, and why this one: the person's choice, or the
   * hour; where the form applies only somewhere (the "mesures renforcées" of 20 March 2021),
   * the question only the person can answer. */
  function texteSituation() {
    const contexte = contexteMontre();
    if (!contexte) return "";
    let texte = contexteChoisi() ? `Situation choisie : ${contexte.name}.`
      : contexte.hours ? `Selon l’heure de sortie : ${contexte.name}.` : `Situation : ${contexte.name}.`;
    if (contexte.area) {
      texte += ` Ce formulaire ne concerne que ${contexte.area}\u00a0: y êtes-vous\u00a0? Ailleurs, il n’est pas demandé`
        + (contexte.hoursText ? ` (${contexte.hoursText}).` : ".");
    }
    return texte;
  }

  /** `&context=…` for the page's own requests. A link the person keeps (a bookmark, a
   * Shortcut: `pourGarder`) carries it only when they chose it: the next version may not have
   * that context (the server then refuses it), while a link without one follows the link's
   * default from version to version. */
  function parametreContexte(pourGarder = false) {
    const contexte = contexteEnVigueur();
    const p = pourGarder ? personne(etat.jeton) : null;
    if (!contexte || (pourGarder && !(p && p.contexte === contexte))) return "";
    return `&context=${encodeURIComponent(contexte)}`;
  }

  /** Where the version in force has several contexts (curfew, weekend…), one large button each,
   * like the reasons. Offline the template is of one context: the others need the server. */
  function afficherContextes() {
    const version = etat.lien.version;
    const contextes = (version && version.contexts) || [];
    const bloc = $("contextes");
    bloc.hidden = contextes.length === 0;
    const liste = $("contextes-liste");
    liste.replaceChildren();
    for (const contexte of contextes) {
      const id = `contexte-${contexte.id}`;
      const label = document.createElement("label");
      label.className = "motif contexte";
      label.htmlFor = id;
      const bouton = document.createElement("input");
      bouton.type = "radio";
      bouton.name = "contexte";
      bouton.id = id;
      bouton.value = contexte.id;
      bouton.checked = contexte.id === version.context;
      bouton.disabled = etat.horsLigne;
      const titre = document.createElement("span");
      titre.className = "motif-titre";
      titre.textContent = contexte.name;
      label.append(bouton, titre);
      liste.append(label);
    }
    $("contextes-hors-ligne").hidden = !etat.horsLigne;
    $("contextes-situation").textContent = texteSituation();
  }

  /** One tap on a context: remembered for this person, and the reasons of that context's form. */
  async function choisirContexte(evenement) {
    const choisi = evenement.target.value;
    if (!choisi || choisi === contexteEnVigueur()) return;
    const avant = personne(etat.jeton);
    const contexteAvant = avant ? avant.contexte : undefined;
    modifierPersonne((p) => { p.contexte = choisi; });
    const erreur = $("contextes-erreur");
    erreur.hidden = true;
    let corps = null;
    try {
      const reponse = await fetch(`/api/v1/link?t=${etat.jeton}&context=${encodeURIComponent(choisi)}`,
        { cache: "no-store", credentials: "omit" });
      corps = await reponse.json();
      if (!reponse.ok || !corps || !corps.form) throw new Error((corps && corps.error) || `le serveur a répondu ${reponse.status}.`);
    } catch (e) {
      erreur.textContent = `Situation non changée : ${e.message || "pas de réseau."}`;
      erreur.hidden = false;
      modifierPersonne((p) => { p.contexte = contexteAvant; });
      for (const bouton of document.querySelectorAll('input[name="contexte"]')) bouton.checked = bouton.value === contexteEnVigueur();
      return;
    }
    etat.lien = corps;
    memoriser(corps);
    oublierFaite();
    afficherMotifs(motifsDeDepart(personne(etat.jeton)));
    majMotifsManquants();
    majLiens();
    $("lien-raccourcis").href = `/raccourcis.html?t=${etat.jeton}${parametreContexte(true)}`;
    const nom = corps.version.contexts.find((c) => c.id === corps.version.context);
    $("annonce").textContent = `Situation : ${nom ? nom.name : choisi}. Motifs de ce formulaire.`;
    $("contextes-situation").textContent = texteSituation();
    etat.modele = null;
    etat.chargementModele = chargerModele();
  }

  // A new form since the last visit ----------------------------------------------------------

  /** The version of the form this person last saw on this device: its start for a link that
   * follows the calendar (switching context is not a new form), else the form's id (a person
   * kept before links followed the calendar). */
  function versionVue(p) {
    if (!p) return null;
    if (p.versionVue) return { depuis: p.versionVue };
    return p.infos && p.infos.form && p.infos.form.id ? { formulaire: p.infos.form.id } : null;
  }

  /** « Nouveau formulaire depuis le … » when the version in force is not the one this person
   * saw last time; then remembers this one. */
  function signalerNouveauFormulaire(lien, avant) {
    const version = lien.version;
    // Past the end of the calendar (20 June 2021): said every time, the link still prints. A
    // pinned link whose form is no longer in force says so, and since when.
    const fin = (version && version.endedText) || (lien.pinnedFormOutdated && lien.pinnedFormOutdated.text) || "";
    $("avis-fin").textContent = fin;
    $("avis-fin").hidden = fin === "";
    if (!version) return;
    const change = avant && (avant.depuis ? avant.depuis !== version.start : avant.formulaire !== lien.form.id);
    // Past the end, the notice of the end is the true one: it names the last version already.
    if (change && !version.endedText) {
      $("avis-formulaire-texte").textContent = `Nouveau formulaire depuis le ${version.startText}\u00a0: vérifiez vos motifs`
        + (version.contexts && version.contexts.length > 0 ? " et votre situation." : ".");
      $("avis-formulaire").hidden = false;
    }
    modifierPersonne((p) => {
      p.versionVue = version.start;
      p.formulaireVu = lien.form.id;
    });
  }

  function fermerAvisFormulaire() {
    $("avis-formulaire").hidden = true;
    const premier = document.querySelector('input[name="contexte"]:checked') || document.querySelector('input[name="motif"]');
    if (premier) premier.focus();
  }

  // Links for the current choices ---------------------------------------------------------------

  function requete(format, pourGarder = false) {
    let chemin = `/attestation.${format}?t=${etat.jeton}${parametreContexte(pourGarder)}`;
    if (etat.decalage !== 0) chemin += `&offset=${etat.decalage}`;
    const motifs = motifsChoisis();
    const parDefaut = etat.lien.defaultReasons;
    const memes = motifs.length === parDefaut.length && motifs.every((c) => parDefaut.includes(c));
    // With reasons missing, the server refuses the link's defaults (409): always say which.
    const manquants = (etat.lien.missingReasons || []).length > 0;
    if (!etat.lien.lockReasons && (!memes || manquants) && motifs.length > 0) {
      chemin += `&reasons=${motifs.map(encodeURIComponent).join(",")}`;
    }
    return chemin;
  }

  function majLiens() {
    const vide = motifsChoisis().length === 0;
    $("motifs-vide").hidden = !vide;
    // Nothing is generated while the person has to choose their reasons in the form in force.
    const bloque = vide || etat.motifsAConfirmer;
    // Offline, the PDF and its QR code are made here from the template; the page image needs the server.
    for (const [id, format, horsLigne] of [["generer", "pdf", !!etat.modele], ["qr", "png", !!etat.modele], ["image", "png", false]]) {
      const a = $(id);
      a.href = requete(format) + (id === "image" ? "&page=1&dpi=150" : "");
      if (bloque || (etat.horsLigne && !horsLigne)) a.setAttribute("aria-disabled", "true");
      else a.removeAttribute("aria-disabled");
    }
    if (bloque || (etat.horsLigne && !etat.modele)) $("agent").setAttribute("aria-disabled", "true");
    else $("agent").removeAttribute("aria-disabled");
    majRaisonDesActions(vide);
    $("lien").value = new URL(requete("pdf", true), location.href).href;
    $("copie-etat").textContent = "";
  }

  /** Why the actions are greyed, said beside them; the notice that explains it in full (reasons
   * of the link missing from the form in force, offline without a template) may be out of sight. */
  function majRaisonDesActions(vide) {
    let raison = "";
    if (etat.horsLigne && !etat.modele) {
      raison = "Hors ligne, sans modèle enregistré : reconnectez-vous pour générer l’attestation.";
    } else if (etat.motifsAConfirmer) {
      raison = etat.lien.lockReasons
        ? "Les motifs fixés par votre lien n’existent pas dans ce formulaire : demandez un nouveau lien."
        : "Vos motifs habituels n’existent pas dans ce formulaire : choisissez vos motifs ci-dessus.";
    } else if (vide) {
      raison = "Choisissez au moins un motif ci-dessus.";
    }
    const bloc = $("actions-raison");
    bloc.textContent = raison;
    bloc.hidden = raison === "";
    for (const id of ["generer", "qr", "image", "agent"]) {
      if (raison) $(id).setAttribute("aria-describedby", "actions-raison");
      else $(id).removeAttribute("aria-describedby");
    }
  }

  /** A disabled action was touched: the focus goes to what is missing. */
  function montrerCeQuiManque() {
    if (etat.horsLigne) $("reessayer").focus();
    else if (etat.motifsAConfirmer) $("motifs-manquants").focus();
    else document.querySelector('input[name="motif"]').focus();
  }

  function suivreLien(evenement) {
    if (evenement.currentTarget.getAttribute("aria-disabled") === "true") {
      evenement.preventDefault();
      montrerCeQuiManque();
      return;
    }
    const id = evenement.currentTarget.id;
    if ((id === "generer" || id === "qr") && etat.horsLigne && etat.modele) {
      evenement.preventDefault();
      genererHorsLigne(id === "qr" ? "png" : "pdf");
    } else if (id === "generer") {
      noterFaite();
    }
  }

  /** What the offline notice says: true in each case. Shown once its text is written, never
   *  with the text of another case while the last attestation is looked up. */
  async function majHorsLigne() {
    const notice = $("hors-ligne");
    if (!etat.horsLigne) {
      notice.hidden = true;
      return;
    }
    const derniere = etat.jeton ? await derniereAttestation(etat.jeton) : null;
    let texte;
    if (!etat.modele && etat.changement) {
      texte = `${AttestationHorsLigne.messageChangement(etat.changement)} Ce téléphone ne crée pas d’attestation `
        + "sur l’ancien formulaire.";
    } else if (etat.modele) {
      texte = "Pas de réseau : l’attestation est créée sur ce téléphone, avec son QR code, à l’heure exacte, identique à "
        + "celle que donnerait le serveur. Seule l’image de la page demande le réseau.";
    } else if (derniere) {
      texte = "Pas de réseau, et ce téléphone ne peut pas encore créer d’attestation pour ce lien : il le pourra "
        + "après une ouverture de cette page avec du réseau. Votre dernière attestation, enregistrée ici, reste disponible.";
    } else {
      texte = "Pas de réseau, et ce téléphone n’a encore ni attestation enregistrée, ni de quoi en créer une pour ce "
        + "lien. Ouvrez cette page une fois avec du réseau : ensuite, elle en créera même hors ligne.";
    }
    $("hors-ligne-texte").textContent = texte;
    notice.dataset.cas = etat.modele ? "modele" : etat.changement ? "changement" : derniere ? "derniere" : "rien";
    notice.hidden = !etat.horsLigne;
  }

  async function copier() {
    const champ = $("lien");
    try {
      await navigator.clipboard.writeText(champ.value);
      $("copie-etat").textContent = "Lien copié.";
    } catch {
      champ.focus();
      champ.select();
      $("copie-etat").textContent = "Le lien est sélectionné : copiez-le avec le menu de votre téléphone.";
    }
  }

  // The page ------------------------------------------------------------------------------------

  /** A link the page cannot use: the server's (or the page's) reason, in the alert. */
  function lienInutilisable(message) {
    $("chargement").hidden = true;
    $("titre-personne").textContent = "Lien inutilisable";
    const e = $("erreur");
    e.textContent = message;
    e.hidden = false;
    afficherPersonnes();
  }

  function afficherPersonne(lien, horsLigne) {
    etat.lien = lien;
    etat.horsLigne = horsLigne;
    $("chargement").hidden = true;
    $("prenom").textContent = lien.firstName;
    document.title = `Attestation pour ${lien.firstName}`;
    afficherContextes();
    afficherMotifs(motifsDeDepart(personne(etat.jeton)));
    majMotifsManquants();
    $("choix").hidden = false;
    $("bloc-lien").hidden = false;
    $("installer").hidden = false;
    $("lien-raccourcis").href = `/raccourcis.html?t=${etat.jeton}${parametreContexte(true)}`;
    personnaliserIcone(lien);
    etat.decalage = sortieGardee(lien.offsetBounds);
    majSortie();
    majLiens();
    majHorsLigne();
    afficherPersonnes();
    afficherDerniere();
  }

  const manifesteDe = (jeton) => `/api/v1/manifest?t=${jeton}`;

  /** The page's manifest link, made here rather than written in index.html: Chromium read the
   * site's one as the page loaded and, under load, kept it when the link then changed to the
   * person's (a browser test saw it in two fresh-clone runs). With no link until this script
   * knows whose page it is, there is no earlier manifest to keep. */
  function lierManifeste(href) {
    let lien = $("manifeste");
    if (!lien) {
      lien = document.createElement("link");
      lien.rel = "manifest";
      lien.id = "manifeste";
      document.head.append(lien);
    }
    if (lien.getAttribute("href") !== href) lien.href = href;
  }

  /** The home-screen icon opens this person: a manifest of their own (start_url /?t=…), and
   * the title iOS gives the icon. */
  function personnaliserIcone(lien) {
    lierManifeste(manifesteDe(etat.jeton));
    const nom = `Attestation ${lien.firstName}`;
    $("titre-icone").content = nom;
    $("nom-icone").textContent = nom;
  }

  async function passerHorsLigne() {
    etat.ecartHorloge = horlogeMemorisee();
    etat.modele = await lireModele(etat.jeton);
    const p = personne(etat.jeton);
    if (p && p.infos) {
      afficherPersonne(p.infos, true);
      return;
    }
    etat.horsLigne = true;
    $("chargement").hidden = true;
    $("titre-personne").textContent = "Hors ligne";
    majHorsLigne();
    afficherDerniere();
  }

  /** The network went away with the page open (a tunnel, a lift): say so, and make the next
   * attestation here when the template is kept. */
  async function perdreReseau() {
    if (!etat.lien || etat.horsLigne) return;
    if (etat.modele && formulaireChange(etat.modele)) etat.modele = null;
    if (!etat.modele) etat.modele = await lireModele(etat.jeton);
    etat.horsLigne = true;
    afficherContextes();
    majLiens();
    majHorsLigne();
  }

  /** Whether the person's remembered context holds now: not while its hours do not cover the
   * moment and those of another that applies everywhere do (a choice made for the day, "mesures
   * renforcées", at 20h: the hour decides, the curfew form). Kept, for the next day. The curfew
   * chosen at 11h on 20 March 2021 holds: the daytime form of that hour applies only somewhere,
   * and the person said they are not there. At an hour no context covers, and for unknown
   * hours (a page kept before they were data), the choice holds. */
  function choixDansSesHeures(p) {
    const version = p.infos && p.infos.version;
    const contextes = (version && Array.isArray(version.contexts) && version.contexts) || [];
    const contexte = contextes.find((c) => c.id === p.contexte);
    // Before the server answers, the gap to its clock is the one kept from the last visit.
    const instant = new Date(Date.now() + (etat.ecartHorloge || horlogeMemorisee()));
    if (!contexte || AttestationHorsLigne.couvre(contexte.hours, instant)) return true;
    return !contextes.some((c) => c !== contexte && !c.area && AttestationHorsLigne.couvre(c.hours, instant));
  }

  /** /api/v1/link in the person's context; a context the version in force no longer has (the
   * form changed) is forgotten, and the server's default taken. */
  async function demanderLien() {
    const p = personne(etat.jeton);
    const contexte = p && typeof p.contexte === "string" && choixDansSesHeures(p) ? p.contexte : null;
    const url = `/api/v1/link?t=${etat.jeton}`;
    let reponse = await fetch(contexte ? `${url}&context=${encodeURIComponent(contexte)}` : url, { cache: "no-store", credentials: "omit" });
    if (contexte && reponse.status === 400) {
      modifierPersonne((q) => { delete q.contexte; });
      reponse = await fetch(url, { cache: "no-store", credentials: "omit" });
    }
    return reponse;
  }

  async function chargerLien() {
    let reponse;
    try {
      reponse = await demanderLien();
    } catch {
      passerHorsLigne();
      return;
    }
    let corps = null;
    try {
      corps = await reponse.json();
    } catch {
      corps = null;
    }
    if (!reponse.ok || !corps || !corps.form) {
      lienInutilisable((corps && corps.error) || `Le serveur a répondu ${reponse.status}. Réessayez plus tard.`);
      return;
    }
    const heureServeur = Date.parse(corps.serverTime);
    if (!isNaN(heureServeur)) {
      etat.ecartHorloge = heureServeur - Date.now();
      memoriserHorloge(etat.ecartHorloge);
    }
    const avant = versionVue(personne(etat.jeton));
    etat.changement = null;
    memoriser(corps);
    afficherPersonne(corps, false);
    signalerNouveauFormulaire(corps, avant);
    etat.modele = null;
    etat.chargementModele = chargerModele();
    const expiration = new Date(corps.expires || NaN);
    if (!isNaN(expiration)) {
      $("expiration").textContent = `Ce lien expire ${jourEtHeure(expiration)}.`;
      $("expiration").hidden = false;
    }
  }

  function demarrer() {
    if ("serviceWorker" in navigator) {
      navigator.serviceWorker.register("/sw.js").catch(() => {});
    }
    $("ajout").addEventListener("submit", ajouter);
    $("ajout-lien").addEventListener("input", () => {
      $("ajout-erreur").textContent = "";
      $("ajout-lien").removeAttribute("aria-invalid");
    });

    const t = new URLSearchParams(location.search).get("t");
    lierManifeste(t && JETON.test(t) ? manifesteDe(t) : "/manifest.webmanifest");
    if (!t) {
      afficherPersonnes();
      return;
    }
    $("accueil").hidden = true;
    $("page-personne").hidden = false;
    if (!JETON.test(t)) {
      lienInutilisable("Ce lien est incomplet ou abîmé : rouvrez-le tel que votre administrateur l’a envoyé.");
      return;
    }
    etat.jeton = t;
    afficherPersonnes();

    $("choix").addEventListener("submit", (e) => e.preventDefault());
    $("motifs-liste").addEventListener("change", () => {
      oublierFaite();
      motifsConfirmes();
    });
    $("motifs-garder").addEventListener("click", motifsConfirmes);
    $("contextes-liste").addEventListener("change", choisirContexte);
    $("avis-formulaire-fermer").addEventListener("click", fermerAvisFormulaire);
    $("sortie-moins").addEventListener("click", (e) => changerSortie(etat.decalage - PAS, e.currentTarget));
    $("sortie-plus").addEventListener("click", (e) => changerSortie(etat.decalage + PAS, e.currentTarget));
    $("sortie-maintenant").addEventListener("click", (e) => changerSortie(0, e.currentTarget));
    for (const bouton of document.querySelectorAll("[data-decalage]")) bouton.addEventListener("click", choisirRetard);
    $("generer").addEventListener("click", suivreLien);
    $("qr").addEventListener("click", suivreLien);
    $("image").addEventListener("click", suivreLien);
    $("agent").addEventListener("click", ouvrirVue);
    $("agent-fermer").addEventListener("click", demanderFermeture);
    $("vue-agent").addEventListener("cancel", (e) => {
      e.preventDefault();
      demanderFermeture();
    });
    window.addEventListener("popstate", () => { if ($("vue-agent").open) fermerVue(); });
    document.addEventListener("visibilitychange", () => { if ($("vue-agent").open) garderEcranAllume(); });
    $("copier").addEventListener("click", copier);
    $("reessayer").addEventListener("click", () => location.reload());
    window.addEventListener("online", () => { if (etat.horsLigne) location.reload(); });
    window.addEventListener("offline", perdreReseau);
    // Back from the PDF: the page may come from the back-forward cache, with a newer attestation
    // kept; or the PDF was downloaded and the page stayed: the service worker says so.
    window.addEventListener("pageshow", () => {
      expirerSortie();
      if (etat.lien) afficherDerniere();
    });
    document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") expirerSortie(); });
    if ("serviceWorker" in navigator) {
      navigator.serviceWorker.addEventListener("message", (m) => {
        if (m.data && m.data.type === "attestation-enregistree" && m.data.t === etat.jeton) afficherDerniere();
      });
    }
    // "Il y a 20 min" stays true as time passes; the printed time moves with it.
    setInterval(() => {
      if (!etat.lien) return;
      expirerSortie();
      $("sortie-texte").textContent = texteSortie();
      $("sortie-chiffres").textContent = chiffresSortie();
      // Open across a change of form: the page follows the server to the new one.
      const prochain = Date.parse(etat.lien.version && etat.lien.version.nextChange);
      if (!etat.horsLigne && !isNaN(prochain) && maintenant().getTime() >= prochain) chargerLien();
    }, 15000);

    chargerLien();
  }

  demarrer();
})();
