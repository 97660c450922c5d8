#!/usr/bin/python3
"""Checks the Kubernetes manifests of docs/deploy/kubernetes/ (make stress-smoke, so CI).

1. Each resource against the Kubernetes API schemas, strictly (no unknown field), for the
   oldest and the newest Kubernetes versions we claim, with kubernetes-validate from PyPI
   (installed in .venv-kubernetes, pinned).
2. What the schemas cannot say: the Deployment runs as non-root with a read-only root, no
   capability, no privilege escalation, the runtime's seccomp profile, probes on /healthz,
   resources set, ConfigMaps mounted as directories (a subPath mount is never updated, so the
   server could not reload); the HPA and the PodDisruptionBudget select the Deployment's pods;
   the Service targets its port.
3. The configuration in the ConfigMap is accepted by the server itself (`--check-config`, with
   the mounted paths rebuilt in a scratch directory), and the revocation list is not empty.

Usage: scripts/check-kubernetes.py   (ATTESTATION_BIN: where attestation-server is; default: the
latest of .build/release and .build/debug, as the test harness, scripts/harness, finds it)
"""
import json
import os
import subprocess
import sys
import tempfile
import venv

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts", "harness"))

import attestation_harness as harness  # noqa: E402

MANIFESTS = os.path.join(ROOT, "docs", "deploy", "kubernetes")
VENV = os.path.join(ROOT, ".venv-kubernetes")
VALIDATOR = "kubernetes-validate==1.37.0"
VERSIONS = ["1.30.0", "1.37.0"]

failures = []


def check(ok, message):
    print(("ok      " if ok else "ÉCHEC   ") + message)
    if not ok:
        failures.append(message)


def validator():
    executable = os.path.join(VENV, "bin", "kubernetes-validate")
    if not os.path.exists(executable):
        venv.create(VENV, with_pip=True)
        subprocess.run([os.path.join(VENV, "bin", "pip"), "install", "-q", VALIDATOR], check=True)
    return executable


def resources():
    found = []
    for name in sorted(os.listdir(MANIFESTS)):
        if not name.endswith(".yaml") or name == "kustomization.yaml":
            continue
        with open(os.path.join(MANIFESTS, name), encoding="utf-8") as handle:
            for document in yaml.safe_load_all(handle):
                if document:
                    found.append((name, document))
    return found


def schema_checks(files):
    for version in VERSIONS:
        result = subprocess.run([validator(), "--strict", "--quiet", "-k", version] + files,
                                capture_output=True, text=True)
        check(result.returncode == 0, f"schémas Kubernetes {version} (strict) : {len(files)} fichiers"
              + ("" if result.returncode == 0 else "\n" + result.stdout + result.stderr))


def of_kind(all_resources, kind):
    return [document for _, document in all_resources if document.get("kind") == kind]


def deployment_checks(all_resources):
    deployments = of_kind(all_resources, "Deployment")
    check(len(deployments) == 1, "un Deployment")
    deployment = deployments[0]
    spec = deployment["spec"]
    pod = spec["template"]["spec"]
    labels = spec["template"]["metadata"]["labels"]
    check(spec["selector"]["matchLabels"].items() <= labels.items(), "le sélecteur du Deployment choisit ses pods")
    check(spec.get("replicas", 1) >= 2, "deux réplicas au moins")
    pod_security = pod.get("securityContext", {})
    check(pod_security.get("runAsNonRoot") is True, "pod : runAsNonRoot")
    check(pod_security.get("seccompProfile", {}).get("type") == "RuntimeDefault", "pod : seccomp RuntimeDefault")
    check(pod.get("automountServiceAccountToken") is False, "pod : pas de jeton de compte de service")
    containers = pod["containers"]
    check(len(containers) == 1, "un conteneur")
    container = containers[0]
    security = container.get("securityContext", {})
    check(security.get("readOnlyRootFilesystem") is True, "conteneur : système de fichiers racine en lecture seule")
    check(security.get("allowPrivilegeEscalation") is False, "conteneur : pas d’élévation de privilèges")
    check(security.get("capabilities", {}).get("drop") == ["ALL"] and not security.get("capabilities", {}).get("add"),
          "conteneur : aucune capacité")
    check(not security.get("privileged"), "conteneur : non privilégié")
    for probe in ["livenessProbe", "readinessProbe"]:
        path = container.get(probe, {}).get("httpGet", {}).get("path")
        check(path == "/healthz", f"{probe} sur /healthz")
    resources_set = container.get("resources", {})
    check("cpu" in resources_set.get("requests", {}) and "memory" in resources_set.get("requests", {}),
          "demandes de CPU et de mémoire (l’autoscaler en a besoin)")
    check("memory" in resources_set.get("limits", {}), "limite de mémoire")
    grace = pod.get("terminationGracePeriodSeconds", 30)
    check(grace >= 20, f"délai d’arrêt ({grace} s) au-delà de preStop et de shutdownTimeout")
    volumes = {volume["name"]: volume for volume in pod.get("volumes", [])}
    config_maps = {document["metadata"]["name"]: document for document in of_kind(all_resources, "ConfigMap")}
    mounted = {}
    for mount in container.get("volumeMounts", []):
        volume = volumes.get(mount["name"], {})
        if "configMap" in volume:
            check("subPath" not in mount and "subPathExpr" not in mount,
                  f"ConfigMap {volume['configMap']['name']} montée en dossier, sans subPath (sinon jamais mise à jour)")
            check(volume["configMap"]["name"] in config_maps, f"ConfigMap {volume['configMap']['name']} définie")
            mounted[mount["mountPath"]] = config_maps.get(volume["configMap"]["name"], {}).get("data") or {}
    args = container.get("args") or container.get("command") or []
    check(args[:1] == ["attestation-server"] and "--config" in args, "le conteneur lance attestation-server --config")
    config_path = args[args.index("--config") + 1] if "--config" in args else ""
    return deployment, container, mounted, config_path


def selection_checks(all_resources, deployment, container):
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    for kind in ["Service", "PodDisruptionBudget"]:
        for document in of_kind(all_resources, kind):
            selector = document["spec"]["selector"]
            selector = selector.get("matchLabels", selector)
            check(selector.items() <= labels.items(), f"{kind} choisit les pods du Deployment")
    ports = {port.get("name"): port["containerPort"] for port in container.get("ports", [])}
    for service in of_kind(all_resources, "Service"):
        for port in service["spec"]["ports"]:
            target = port.get("targetPort")
            check(target in ports or target in ports.values(), f"Service : targetPort {target} est un port du conteneur")
    autoscalers = of_kind(all_resources, "HorizontalPodAutoscaler")
    check(len(autoscalers) == 1, "un HorizontalPodAutoscaler")
    for autoscaler in autoscalers:
        target = autoscaler["spec"]["scaleTargetRef"]
        check(target["kind"] == "Deployment" and target["name"] == deployment["metadata"]["name"],
              "l’autoscaler vise le Deployment")
        check(autoscaler["spec"].get("minReplicas", 1) >= 2, "l’autoscaler garde deux réplicas au moins")
    check(len(of_kind(all_resources, "PodDisruptionBudget")) == 1, "un PodDisruptionBudget")


def configuration_check(mounted, config_path):
    """The mounted directories rebuilt under a scratch root; the server checks config.json."""
    with tempfile.TemporaryDirectory(prefix="check-kubernetes-") as root:
        for mount_path, files in mounted.items():
            directory = root + mount_path
            os.makedirs(directory, exist_ok=True)
            for name, text in files.items():
                with open(os.path.join(directory, name), "w", encoding="utf-8") as handle:
                    handle.write(text)
        config_file = root + config_path
        check(os.path.exists(config_file), f"{config_path} est dans une ConfigMap montée")
        if not os.path.exists(config_file):
            return
        with open(config_file, encoding="utf-8") as handle:
            config = json.load(handle)
        for key in ["revocationList", "formsDirectory"]:
            if isinstance(config.get(key), str) and config[key].startswith("/"):
                check(any(config[key].startswith(path) for path in mounted), f"{key} est dans une ConfigMap montée")
                config[key] = root + config[key]
        revocations = config.get("revocationList", "")
        check(os.path.exists(revocations) and os.path.getsize(revocations) > 0,
              "la liste de révocation existe et n’est pas vide")
        with open(config_file, "w", encoding="utf-8") as handle:
            json.dump(config, handle)
        result = subprocess.run([harness.binary("attestation-server"), "--config", config_file, "--check-config"],
                                capture_output=True, text=True, env=harness.sanitizer_environment())
        check(result.returncode == 0, "attestation-server --check-config accepte la configuration de la ConfigMap"
              + ("" if result.returncode == 0 else ": " + result.stderr.strip()))


def main():
    all_resources = resources()
    files = sorted({os.path.join(MANIFESTS, name) for name, _ in all_resources})
    schema_checks(files)
    deployment, container, mounted, config_path = deployment_checks(all_resources)
    selection_checks(all_resources, deployment, container)
    configuration_check(mounted, config_path)
    print(f"check-kubernetes : {len(all_resources)} ressources, {len(failures)} échec(s).")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
