// The personal page and the home page. Plain JavaScript, no framework, nothing loaded from
// elsewhere. What is kept on the device: the people's links, their details for offline use and
// their last reasons (localStorage), and each person's last attestation (the service worker's cache).
"use strict";

(() => {
  const STOCKAGE = "attestation.personnes.v1";
  const CACHE_ATTESTATIONS = "attestations-v1";
  const PAS = 10;
  const JETON = /^[A-Za-z0-9_-]{8,2000}$/;

  const $ = (id) => document.getElementById(id);

  const etat = {
    jeton: null,
    lien: null, // what /api/v1/link said, or the copy kept on the device when offline
    decalage: 0, // minutes from now, as the `offset` parameter
    ecartHorloge: 0, // server clock minus this device's, so the time shown is the one printed
    horsLigne: false,
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
      defaultReasons: lien.defaultReasons,
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

  function memoriserMotifs(motifs) {
    const liste = lirePersonnes();
    const p = liste.find((q) => q.t === etat.jeton);
    if (!p) return;
    p.motifs = motifs;
    ecrirePersonnes(liste);
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
      $("ajout-erreur").textContent = "Lien non reconnu : collez le lien complet reçu de votre administrateur (il contient « ?t= »).";
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
  }

  async function afficherDerniere() {
    const bloc = $("derniere-bloc");
    const reponse = etat.jeton ? await derniereAttestation(etat.jeton) : null;
    if (!reponse) {
      bloc.hidden = true;
      return;
    }
    $("derniere").href = cleDerniere("pdf", etat.jeton);
    const quand = new Date(reponse.headers.get("X-Enregistree-Le") || reponse.headers.get("Date") || NaN);
    $("derniere-date").textContent = isNaN(quand) ? "" : `générée ${jourEtHeure(quand)}`;
    bloc.hidden = false;
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

  function majSortie() {
    $("sortie-texte").textContent = texteSortie();
    const bornes = etat.lien.offsetBounds;
    $("sortie-moins").disabled = etat.decalage - PAS < bornes.minimum;
    $("sortie-plus").disabled = etat.decalage + PAS > bornes.maximum;
    $("sortie-maintenant").disabled = etat.decalage === 0;
    const limite = etat.decalage - PAS < bornes.minimum
      ? `Au plus ${duree(-bornes.minimum)} avant maintenant.`
      : etat.decalage + PAS > bornes.maximum ? `Au plus ${duree(bornes.maximum)} après maintenant.` : "";
    $("sortie-limites").textContent = limite;
  }

  function changerSortie(nouveau, bouton) {
    const bornes = etat.lien.offsetBounds;
    etat.decalage = Math.min(bornes.maximum, Math.max(bornes.minimum, nouveau));
    majSortie();
    majLiens();
    $("annonce").textContent = $("sortie-texte").textContent;
    // A button that just became disabled would drop the focus to the page: keep it nearby.
    if (bouton.disabled) $("sortie-maintenant").disabled ? $("sortie-moins").focus() : $("sortie-maintenant").focus();
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

  function motifsDeDepart(p) {
    const codes = new Set(etat.lien.form.reasons.map((r) => r.code));
    if (!etat.lien.lockReasons && p && Array.isArray(p.motifs) && p.motifs.length > 0 && p.motifs.every((c) => codes.has(c))) {
      return p.motifs;
    }
    return etat.lien.defaultReasons;
  }

  // Links for the current choices ---------------------------------------------------------------

  function requete(format) {
    let chemin = `/attestation.${format}?t=${etat.jeton}`;
    if (etat.decalage !== 0) chemin += `&offset=${etat.decalage}`;
    const motifs = motifsChoisis();
    const parDefaut = etat.lien.defaultReasons;
    const memes = motifs.length === parDefaut.length && motifs.every((c) => parDefaut.includes(c));
    if (!etat.lien.lockReasons && !memes && motifs.length > 0) chemin += `&reasons=${motifs.map(encodeURIComponent).join(",")}`;
    return chemin;
  }

  function majLiens() {
    const vide = motifsChoisis().length === 0;
    $("motifs-vide").hidden = !vide;
    const impossible = vide || etat.horsLigne;
    for (const [id, format] of [["generer", "pdf"], ["qr", "png"]]) {
      const a = $(id);
      a.href = requete(format);
      if (impossible) a.setAttribute("aria-disabled", "true");
      else a.removeAttribute("aria-disabled");
    }
    $("lien").value = new URL(requete("pdf"), location.href).href;
    $("copie-etat").textContent = "";
  }

  function suivreLien(evenement) {
    if (evenement.currentTarget.getAttribute("aria-disabled") === "true") {
      evenement.preventDefault();
      if (etat.horsLigne) $("reessayer").focus();
      else document.querySelector('input[name="motif"]').focus();
    }
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
    afficherMotifs(motifsDeDepart(personne(etat.jeton)));
    $("hors-ligne").hidden = !horsLigne;
    $("choix").hidden = false;
    majSortie();
    majLiens();
    afficherPersonnes();
    afficherDerniere();
  }

  function passerHorsLigne() {
    const p = personne(etat.jeton);
    if (p && p.infos) {
      afficherPersonne(p.infos, true);
      return;
    }
    etat.horsLigne = true;
    $("chargement").hidden = true;
    $("titre-personne").textContent = "Hors ligne";
    $("hors-ligne").hidden = false;
    afficherDerniere();
  }

  async function chargerLien() {
    let reponse;
    try {
      reponse = await fetch(`/api/v1/link?t=${etat.jeton}`, { cache: "no-store", credentials: "omit" });
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
    if (!isNaN(heureServeur)) etat.ecartHorloge = heureServeur - Date.now();
    memoriser(corps);
    afficherPersonne(corps, false);
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
      memoriserMotifs(motifsChoisis());
      majLiens();
    });
    $("sortie-moins").addEventListener("click", (e) => changerSortie(etat.decalage - PAS, e.currentTarget));
    $("sortie-plus").addEventListener("click", (e) => changerSortie(etat.decalage + PAS, e.currentTarget));
    $("sortie-maintenant").addEventListener("click", (e) => changerSortie(0, e.currentTarget));
    $("generer").addEventListener("click", suivreLien);
    $("qr").addEventListener("click", suivreLien);
    $("copier").addEventListener("click", copier);
    $("reessayer").addEventListener("click", () => location.reload());
    window.addEventListener("online", () => { if (etat.horsLigne) location.reload(); });
    // Back from the PDF: the page may come from the back-forward cache, with a newer attestation
    // kept; or the PDF was downloaded and the page stayed: the service worker says so.
    window.addEventListener("pageshow", () => { if (etat.lien) afficherDerniere(); });
    if ("serviceWorker" in navigator) {
      navigator.serviceWorker.addEventListener("message", (m) => {
        if (m.data && m.data.type === "attestation-enregistree" && m.data.t === etat.jeton) afficherDerniere();
      });
    }
    // "Il y a 20 min" stays true as time passes; the printed time moves with it.
    setInterval(() => { if (etat.lien) $("sortie-texte").textContent = texteSortie(); }, 15000);

    chargerLien();
  }

  demarrer();
})();
