// Attestations made without the network, from the offline template the server gave for a link
// (/api/v1/template): the server's own PDF with its variable parts at known byte offsets. This
// writes the dates, times, marks and QR code's modules there, bytes of the same length, so the
// document is the one the server would have made at that instant (same page text, same QR
// payload); the renderer itself stays on the server. Used by the page and by the service worker;
// the QR code is made by qrcode-generator (vendor/qrcode-generator.js, Debian's copy), at the
// template's fixed version, level M, byte mode.
"use strict";

(function (global) {
  const ASCII = /^[\x20-\x7e\n\r\t]*$/;

  /** The wall-clock parts of an instant in a time zone, as numbers. */
  function parties(instant, fuseau) {
    const format = new Intl.DateTimeFormat("fr-FR", {
      timeZone: fuseau, year: "numeric", month: "2-digit", day: "2-digit",
      hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23",
    });
    const p = {};
    for (const m of format.formatToParts(instant)) p[m.type] = m.value;
    return { annee: Number(p.year), mois: Number(p.month), jour: Number(p.day),
      heure: Number(p.hour) % 24, minute: Number(p.minute), seconde: Number(p.second) };
  }

  const deux = (n) => String(n).padStart(2, "0");

  /** Minutes east of UTC of the zone at that instant (+60 in Paris in winter). */
  function decalageFuseau(instant, fuseau) {
    const p = parties(instant, fuseau);
    const local = Date.UTC(p.annee, p.mois - 1, p.jour, p.heure, p.minute, p.seconde);
    return Math.round((local - Math.floor(instant.getTime() / 1000) * 1000) / 60000);
  }

  /** The values the server writes for an instant: `28/11/2020`, `08:15`, `08h15`. */
  function valeurs(instant, fuseau) {
    const p = parties(instant, fuseau);
    return {
      date: `${deux(p.jour)}/${deux(p.mois)}/${p.annee}`,
      heure: `${deux(p.heure)}:${deux(p.minute)}`,
      heureH: `${deux(p.heure)}h${deux(p.minute)}`,
      parties: p,
    };
  }

  function octets(base64) {
    const binaire = atob(base64);
    const resultat = new Uint8Array(binaire.length);
    for (let i = 0; i < binaire.length; i++) resultat[i] = binaire.charCodeAt(i);
    return resultat;
  }

  function ecrire(pdf, zone, texte) {
    if (texte.length !== zone.length || !ASCII.test(texte)) {
      throw new Error(`modèle hors ligne incohérent (${texte.length} octets pour ${zone.length})`);
    }
    for (let i = 0; i < texte.length; i++) pdf[zone.offset + i] = texte.charCodeAt(i);
  }

  /**
   * Makes the attestation.
   * @param modele the JSON of /api/v1/template
   * @param choix {maintenant: Date (the device's corrected clock), decalage: minutes (offset), motifs: [codes],
   *   contexteChoisi: whether the person chose the template's context (else the exit hour decides)}
   * @returns {pdf: Uint8Array, nom: "attestation-YYYY-MM-DD_HH-MM.pdf", charge: the QR payload, sortie: Date}
   */
  function creer(modele, choix) {
    if (!modele || modele.format !== 1) throw new Error("modèle hors ligne d’un format inconnu : rechargez la page avec du réseau.");
    const maintenant = new Date(Math.floor(choix.maintenant.getTime() / 1000) * 1000);
    if (modele.expires && maintenant.getTime() > Date.parse(modele.expires)) {
      throw new Error("Ce lien a expiré : demandez-en un nouveau à votre administrateur.");
    }
    const change = changement(modele, maintenant);
    if (change) throw new Error(messageChangement(change));
    if (!utilisable(modele, maintenant)) {
      throw new Error("ce téléphone n’a pas vu le serveur depuis une semaine : ouvrez la page une fois avec du réseau.");
    }
    const bornes = modele.offsetBounds;
    const decalage = choix.decalage || 0;
    if (!Number.isInteger(decalage) || decalage < bornes.minimum || decalage > bornes.maximum) {
      throw new Error(`Heure de sortie hors des limites : de ${bornes.minimum} à ${bornes.maximum} minutes.`);
    }
    const permis = new Set(modele.reasons);
    const choisis = new Set(modele.lockReasons ? modele.defaultReasons : choix.motifs);
    if (choisis.size === 0) throw new Error("Choisissez au moins un motif.");
    for (const code of choisis) {
      if (!permis.has(code)) throw new Error(`Motif « ${code} » non accepté par ce lien.`);
    }
    // In the form's order, as the server writes them.
    const motifs = modele.marks.map((m) => m.code).filter((code) => choisis.has(code));

    const fuseau = modele.timeZone;
    const sortieInstant = new Date(maintenant.getTime() + decalage * 60000);
    // Unless the person chose the template's context, the hours decide, as on the server: a
    // daytime template does not print an exit at 20h.
    const autre = choix.contexteChoisi ? null : autreContexte(modele, sortieInstant);
    if (autre) throw new Error(messageContexte(modele, autre));
    const creation = valeurs(maintenant, fuseau);
    const sortie = valeurs(sortieInstant, fuseau);
    const champs = {
      creationDate: creation.date, creationTime: creation.heure, creationTimeH: creation.heureH,
      exitDate: sortie.date, exitTime: sortie.heure, exitTimeH: sortie.heureH, reasons: motifs.join(", "),
    };
    const charge = modele.payload.map((s) => (s.value !== undefined ? champs[s.value] : s.text)).join("");
    if (!ASCII.test(charge)) throw new Error("modèle hors ligne incohérent (QR code non ASCII)");

    const pdf = octets(modele.pdf);
    const textes = {
      exitDate: sortie.date, exitTime: sortie.heure, exitTimeH: sortie.heureH,
      creationDate: creation.date, creationTime: creation.heure, creationTimeH: creation.heureH,
    };
    for (const texte of modele.texts) {
      if (!(texte.value in textes)) throw new Error(`modèle hors ligne d’une valeur inconnue (${texte.value})`);
      // Inside a PDF string libharu writes `/` as `\057`.
      ecrire(pdf, texte, textes[texte.value].replace(/\//g, "\\057"));
    }
    // Each mark is a line `(x) Tj`: kept for a chosen reason, made a comment (`%x) Tj`) otherwise.
    for (const marque of modele.marks) pdf[marque.offset] = choisis.has(marque.code) ? 0x28 : 0x25;
    // Where the mark replaces the box (forms of April–June 2021), the box `([ ]) Tj` the other way.
    for (const caseVide of modele.boxes || []) pdf[caseVide.offset] = choisis.has(caseVide.code) ? 0x25 : 0x28;
    const decalageMinutes = decalageFuseau(maintenant, fuseau);
    const signe = decalageMinutes === 0 ? "Z" : decalageMinutes > 0 ? "+" : "-";
    const absolu = Math.abs(decalageMinutes);
    const p = creation.parties;
    ecrire(pdf, modele.creationDate,
      `D:${p.annee}${deux(p.mois)}${deux(p.jour)}${deux(p.heure)}${deux(p.minute)}00${signe}${deux(Math.floor(absolu / 60))}'${deux(absolu % 60)}'`);

    // The QR code at the template's version: the image keeps its size, so the file does too.
    const qr = global.qrcode(modele.qr.version, "M");
    qr.addData(charge, "Byte");
    qr.make();
    const modules = qr.getModuleCount();
    if (modules !== modele.qr.modules) throw new Error("modèle hors ligne incohérent (taille du QR code)");
    const echelle = modele.qr.scale;
    const parLigne = modele.qr.bytesPerRow;
    if (parLigne * modules * echelle !== modele.qr.length) throw new Error("modèle hors ligne incohérent (image du QR code)");
    // 1 bit a pixel, rows from the top, the leftmost pixel in the high bit; 0 is dark (DeviceGray).
    const ligne = new Uint8Array(parLigne);
    for (let rang = 0; rang < modules; rang++) {
      ligne.fill(0xff);
      for (let colonne = 0; colonne < modules; colonne++) {
        if (!qr.isDark(rang, colonne)) continue;
        for (let x = colonne * echelle; x < (colonne + 1) * echelle; x++) ligne[x >> 3] &= ~(0x80 >> (x & 7));
      }
      for (let copie = 0; copie < echelle; copie++) {
        pdf.set(ligne, modele.qr.offset + (rang * echelle + copie) * parLigne);
      }
    }
    return {
      pdf,
      nom: `attestation-${p.annee}-${deux(p.mois)}-${deux(p.jour)}_${deux(p.heure)}-${deux(p.minute)}.pdf`,
      charge,
      sortie: sortieInstant,
      creee: maintenant,
      motifs,
    };
  }

  /** Whether the template may still serve at that instant: offline the page cannot learn of a
   * revocation, so the server gives each template a week (`offlineUntil`), renewed at every
   * visit with the network. */
  function utilisable(modele, maintenant) {
    const limite = Date.parse(modele && modele.offlineUntil);
    return !isNaN(limite) && maintenant.getTime() <= limite;
  }

  /** The instant the form of this template stopped being in force, when it is past: the
   * server scheduled another version (`version.nextChange`), which only the server can print.
   * Null for a form still in force, or a link pinned to one form. */
  function changement(modele, maintenant) {
    const prochain = Date.parse(modele && modele.version && modele.version.nextChange);
    return !isNaN(prochain) && maintenant.getTime() >= prochain ? new Date(prochain) : null;
  }

  /** « 17 mars 2021 », « 1er avril 2021 à 19 h »: a day of the official calendar, Paris time
   * (the calendar's), as the server writes a version's start. */
  function dateLongue(instant) {
    const p = parties(instant, "Europe/Paris");
    const mois = ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
      "novembre", "décembre"][p.mois - 1];
    const jour = `${p.jour === 1 ? "1er" : p.jour}\u00a0${mois} ${p.annee}`;
    if (p.heure === 0 && p.minute === 0) return jour;
    return `${jour} à ${p.heure}\u00a0h` + (p.minute === 0 ? "" : `\u00a0${deux(p.minute)}`);
  }

  /** Whether a context's hours ({from: "19:00", until: "06:00", days: [6, 7]}, Paris time)
   * cover `instant`, as the server decides (FormSchema's ContextHours); null hours: every hour. */
  function couvre(heures, instant) {
    if (!heures) return true;
    const minutes = (texte) => Number(texte.slice(0, 2)) * 60 + Number(texte.slice(3, 5));
    const p = parties(instant, "Europe/Paris");
    const minute = p.heure * 60 + p.minute;
    const dimancheZero = new Date(Date.UTC(p.annee, p.mois - 1, p.jour)).getUTCDay();
    const jour = dimancheZero === 0 ? 7 : dimancheZero;
    const commence = (j) => !Array.isArray(heures.days) || heures.days.includes(j);
    const de = minutes(heures.from);
    const a = minutes(heures.until);
    if (de < a) return minute >= de && minute < a && commence(jour);
    return (minute >= de && commence(jour)) || (minute < a && commence(jour === 1 ? 7 : jour - 1));
  }

  /** The context whose hours cover the exit instant when the template's own do not (a daytime
   * template at 20h): only the server prints that form. Null when the template's covers it. */
  function autreContexte(modele, sortie) {
    const version = modele && modele.version;
    const contextes = (version && version.contexts) || [];
    const sien = contextes.find((c) => c.id === version.context);
    if (!sien || couvre(sien.hours, sortie)) return null;
    return contextes.find((c) => c !== sien && couvre(c.hours, sortie)) || null;
  }

  function messageContexte(modele, autre) {
    const sien = modele.version.contexts.find((c) => c.id === modele.version.context);
    return `le modèle gardé sur ce téléphone est celui de la situation « ${sien.name} » ; à cette heure de sortie, `
      + `c’est « ${autre.name} » : reconnectez-vous pour l’obtenir, ou choisissez « ${sien.name} » sur la page.`;
  }

  function messageChangement(change) {
    return `Le formulaire a changé le ${dateLongue(change)}\u00a0: reconnectez-vous pour obtenir le nouveau.`;
  }

  global.AttestationHorsLigne = {
    creer, parties, decalageFuseau, utilisable, changement, dateLongue, messageChangement, couvre, autreContexte,
    messageContexte,
  };
})(typeof self !== "undefined" ? self : this);
