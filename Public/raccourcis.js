// The Shortcuts page: the person's own two links (now, and 20 minutes ago) filled in from the
// `t` (and the `context`, when the page gave one) of its address, with copy buttons. Nothing leaves the device.
"use strict";

(() => {
  const JETON = /^[A-Za-z0-9_-]{8,2000}$/;
  const $ = (id) => document.getElementById(id);

  async function copier(evenement) {
    const champ = $(evenement.currentTarget.dataset.copier);
    try {
      await navigator.clipboard.writeText(champ.value);
      $("copie-etat").textContent = "Lien copié.";
    } catch {
      champ.focus();
      champ.select();
      $("copie-etat").textContent = "Le lien est sélectionné : copiez-le avec le menu de votre téléphone.";
    }
  }

  const t = new URLSearchParams(location.search).get("t");
  if (!t || !JETON.test(t)) {
    $("liens-absents").hidden = false;
    return;
  }
  // The person's context (curfew, weekend…), as chosen on their page.
  const contexte = new URLSearchParams(location.search).get("context");
  const suite = contexte && /^[A-Za-z0-9_-]{1,64}$/.test(contexte) ? `&context=${contexte}` : "";
  const pdf = new URL(`/attestation.pdf?t=${t}${suite}`, location.href).href;
  $("lien-normal").value = pdf;
  $("lien-retard").value = `${pdf}&offset=-20`;
  $("retour").href = `/?t=${t}`;
  for (const bouton of document.querySelectorAll("[data-copier]")) bouton.addEventListener("click", copier);
  $("liens").hidden = false;
})();
