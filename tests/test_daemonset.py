#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""deploy/kubernetes/daemonset.yaml without a cluster: it parses as YAML
(python3-yaml); each object's fields are ones the Kubernetes API has
where it has them (a misspelt field, which kubectl would refuse or
silently drop, is caught), with the types it takes (labels and
annotations strings, ports and modes integers); the pieces agree with
each other (the selector picks the template, each mount names a volume,
the Secret holds the key file the probe is told to read, the liveness
probe asks /healthz on the metrics port, the scrape annotations name
that port) and with the image of deploy/Containerfile (its user, port,
cache folder, and the probe's --metrics port); the pod runs as non-root
on a read-only root with no capabilities. Then broken copies (a misspelt
field, an annotation that is not a string, a mount without its volume,
another user than the image's) must each be refused for their reason.

    test_daemonset.py DAEMONSET.yaml CONTAINERFILE
"""
import copy
import json
import re
import sys

try:
    import yaml
except ImportError:
    print("test_daemonset: no yaml module (Debian's python3-yaml): skipped")
    sys.exit(77)

# The fields of the objects the example uses, as the Kubernetes API
# reference (v1.31) lists them, with the type of those whose type a
# mistake in YAML changes: "str", "int", "bool", a {key: str} map "labels",
# a nested object's name, or [name] for a list of them.
META = {"name": "str", "namespace": "str", "labels": "labels",
        "annotations": "labels", "generateName": "str"}
SCHEMA = {
    "Secret": {"apiVersion": "str", "kind": "str", "metadata": "Meta",
               "type": "str", "data": "labels", "stringData": "labels",
               "immutable": "bool"},
    "DaemonSet": {"apiVersion": "str", "kind": "str", "metadata": "Meta",
                  "spec": "DaemonSetSpec"},
    "Meta": META,
    "DaemonSetSpec": {"selector": "Selector", "template": "Template",
                      "updateStrategy": "UpdateStrategy",
                      "minReadySeconds": "int", "revisionHistoryLimit": "int"},
    "Selector": {"matchLabels": "labels", "matchExpressions": None},
    "UpdateStrategy": {"type": "str", "rollingUpdate": None},
    "Template": {"metadata": "Meta", "spec": "PodSpec"},
    "PodSpec": {"containers": ["Container"], "initContainers": ["Container"],
                "volumes": ["Volume"], "securityContext": "PodSecurity",
                "terminationGracePeriodSeconds": "int",
                "serviceAccountName": "str", "nodeSelector": "labels",
                "tolerations": None, "affinity": None, "hostNetwork": "bool",
                "dnsPolicy": "str", "priorityClassName": "str",
                "runtimeClassName": "str", "imagePullSecrets": None,
                "automountServiceAccountToken": "bool", "hostUsers": "bool",
                "enableServiceLinks": "bool", "restartPolicy": "str"},
    "PodSecurity": {"runAsUser": "int", "runAsGroup": "int",
                    "runAsNonRoot": "bool", "fsGroup": "int",
                    "fsGroupChangePolicy": "str", "supplementalGroups": None,
                    "seccompProfile": "Seccomp", "seLinuxOptions": None,
                    "sysctls": None, "appArmorProfile": None},
    "Seccomp": {"type": "str", "localhostProfile": "str"},
    "Container": {"name": "str", "image": "str", "imagePullPolicy": "str",
                  "command": None, "args": None, "workingDir": "str",
                  "ports": ["Port"], "env": ["Env"], "envFrom": None,
                  "resources": "Resources", "volumeMounts": ["Mount"],
                  "livenessProbe": "Probe", "readinessProbe": "Probe",
                  "startupProbe": "Probe", "lifecycle": None,
                  "securityContext": "Security",
                  "terminationMessagePolicy": "str"},
    "Port": {"name": "str", "containerPort": "int", "protocol": "str",
             "hostPort": "int", "hostIP": "str"},
    "Env": {"name": "str", "value": "str", "valueFrom": None},
    "Resources": {"requests": None, "limits": None, "claims": None},
    "Mount": {"name": "str", "mountPath": "str", "readOnly": "bool",
              "subPath": "str", "mountPropagation": "str"},
    "Probe": {"httpGet": "HTTPGet", "tcpSocket": None, "exec": None,
              "grpc": None, "initialDelaySeconds": "int",
              "periodSeconds": "int", "timeoutSeconds": "int",
              "failureThreshold": "int", "successThreshold": "int"},
    "HTTPGet": {"path": "str", "port": None, "host": "str", "scheme": "str",
                "httpHeaders": None},
    "Security": {"allowPrivilegeEscalation": "bool",
                 "readOnlyRootFilesystem": "bool",
                 "capabilities": "Capabilities", "privileged": "bool",
                 "runAsUser": "int", "runAsGroup": "int",
                 "runAsNonRoot": "bool", "seccompProfile": "Seccomp",
                 "seLinuxOptions": None, "procMount": "str"},
    "Capabilities": {"add": None, "drop": None},
    "Volume": {"name": "str", "secret": "SecretVolume", "emptyDir": "EmptyDir",
               "configMap": None, "hostPath": None, "projected": None,
               "persistentVolumeClaim": None, "downwardAPI": None},
    "SecretVolume": {"secretName": "str", "defaultMode": "int",
                     "items": None, "optional": "bool"},
    "EmptyDir": {"medium": "str", "sizeLimit": "str"},
}
SCALARS = {"str": str, "int": int, "bool": bool}


def check_fields(value, kind, where, problems):
    """value against SCHEMA[kind], recursively."""
    if kind is None:
        return
    if isinstance(kind, list):
        if not isinstance(value, list):
            problems.append(f"{where}: not a list")
            return
        for i, item in enumerate(value):
            check_fields(item, kind[0], f"{where}[{i}]", problems)
    elif kind == "labels":
        if not isinstance(value, dict) or not all(
                isinstance(v, str) for v in value.values()):
            problems.append(f"{where}: values not all strings: {value}")
    elif kind in SCALARS:
        # YAML's true is a bool, which Python also takes for an int.
        if not isinstance(value, SCALARS[kind]) or (
                kind == "int" and isinstance(value, bool)):
            problems.append(f"{where}: {value!r} is not a {kind}")
    elif not isinstance(value, dict):
        problems.append(f"{where}: not an object")
    else:
        for key, item in value.items():
            if key not in SCHEMA[kind]:
                problems.append(f"{where}.{key}: no such field of {kind}")
            else:
                check_fields(item, SCHEMA[kind][key], f"{where}.{key}", problems)


def read_containerfile(path):
    """{instruction: [its arguments, a line each]}, continuations joined."""
    found = {}
    with open(path, encoding="utf-8") as f:
        text = re.sub(r"\\\n\s*", " ", f.read())
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            word, _, rest = line.strip().partition(" ")
            found.setdefault(word.upper(), []).append(rest.strip())
    return found


def option(args, name):
    return args[args.index(name) + 1] if name in args else None


def check_image(pod, container, image, problems):
    """The pod against the image deploy/Containerfile makes."""
    user, _, group = image["USER"][-1].partition(":")
    security = pod.get("securityContext", {})
    if str(security.get("runAsUser")) != user or str(security.get("runAsGroup")) != group:
        problems.append(f"runAsUser/runAsGroup {security.get('runAsUser')}/"
                        f"{security.get('runAsGroup')}, the image's USER {user}:{group}")
    ports = {p["name"]: p["containerPort"] for p in container.get("ports", [])}
    entrypoint = json.loads(image["ENTRYPOINT"][-1])
    metrics = option(entrypoint, "--metrics") or ""
    if image["EXPOSE"][-1] != str(ports.get("metrics")) or \
            metrics.rpartition(":")[2] != str(ports.get("metrics")):
        problems.append(f"port metrics {ports.get('metrics')}, the image's "
                        f"EXPOSE {image['EXPOSE'][-1]} and --metrics {metrics}")
    cache = dict(e.split("=", 1) for e in image["ENV"] if "=" in e).get("XDG_CACHE_HOME")
    volumes = {v["name"]: v for v in pod.get("volumes", [])}
    if not any(m["mountPath"] == cache and "emptyDir" in volumes.get(m["name"], {})
               for m in container.get("volumeMounts", [])):
        problems.append(f"no emptyDir on the image's XDG_CACHE_HOME {cache}")


def check_pieces(docs, image, problems):
    by_kind = {d.get("kind"): d for d in docs}
    daemonset, secret = by_kind.get("DaemonSet", {}), by_kind.get("Secret", {})
    template = daemonset.get("spec", {}).get("template", {})
    pod = template.get("spec", {})
    container = (pod.get("containers") or [{}])[0]
    labels = template.get("metadata", {}).get("labels", {})
    selector = daemonset.get("spec", {}).get("selector", {}).get("matchLabels", {})
    if not selector or any(labels.get(k) != v for k, v in selector.items()):
        problems.append(f"the selector {selector} does not pick the template {labels}")
    volumes = {v["name"]: v for v in pod.get("volumes", [])}
    mounts = container.get("volumeMounts", [])
    for mount in mounts:
        if mount.get("name") not in volumes:
            problems.append(f"mount {mount.get('mountPath')}: no volume {mount.get('name')}")
    inputs = option(container.get("args", []), "--inputs") or ""
    folder, _, key = inputs.rpartition("/")
    holders = [volumes.get(m.get("name"), {}).get("secret", {}).get("secretName")
               for m in mounts if m.get("mountPath") == folder]
    if secret.get("metadata", {}).get("name") not in holders \
            or key not in secret.get("stringData", {}):
        problems.append(f"--inputs {inputs} is not the Secret's key file")
    ports = {p.get("name"): p.get("containerPort") for p in container.get("ports", [])}
    live = container.get("livenessProbe", {}).get("httpGet", {})
    if live.get("path") != "/healthz" or live.get("port") not in ("metrics", ports.get("metrics")):
        problems.append(f"the liveness probe asks {live}, not /healthz on the metrics port")
    notes = template.get("metadata", {}).get("annotations", {})
    if notes.get("prometheus.io/scrape") != "true" or \
            notes.get("prometheus.io/port") != str(ports.get("metrics")):
        problems.append(f"scrape annotations {notes} do not name port {ports.get('metrics')}")
    security = container.get("securityContext", {})
    if not (pod.get("securityContext", {}).get("runAsNonRoot")
            and security.get("readOnlyRootFilesystem")
            and security.get("allowPrivilegeEscalation") is False
            and security.get("capabilities", {}).get("drop") == ["ALL"]):
        problems.append("not non-root, read-only, without privilege escalation "
                        "and capabilities")
    check_image(pod, container, image, problems)


def problems_of(docs, image):
    problems = []
    for i, doc in enumerate(docs):
        kind = doc.get("kind") if isinstance(doc, dict) else None
        if kind not in SCHEMA:
            problems.append(f"document {i}: kind {kind!r}")
            continue
        check_fields(doc, kind, kind, problems)
    if not problems:
        check_pieces(docs, image, problems)
    return problems


def broken_copies(docs):
    """(what is broken, a word its problem must say, the copy)."""
    def pod(d):
        return next(x for x in d if x["kind"] == "DaemonSet")["spec"]["template"]

    typo = copy.deepcopy(docs)
    security = pod(typo)["spec"]["containers"][0]["securityContext"]
    security["readOnlyRootFileSystem"] = security.pop("readOnlyRootFilesystem")
    unquoted = copy.deepcopy(docs)
    pod(unquoted)["metadata"]["annotations"]["prometheus.io/scrape"] = True
    no_volume = copy.deepcopy(docs)
    pod(no_volume)["spec"]["volumes"] = [
        v for v in pod(no_volume)["spec"]["volumes"] if "emptyDir" not in v]
    root = copy.deepcopy(docs)
    pod(root)["spec"]["securityContext"]["runAsUser"] = 1000
    return [("readOnlyRootFileSystem", "no such field", typo),
            ("prometheus.io/scrape: true unquoted", "not all strings", unquoted),
            ("the cache's volume removed", "no volume", no_volume),
            ("runAsUser 1000", "the image's USER", root)]


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        docs = [d for d in yaml.safe_load_all(f) if d is not None]
    image = read_containerfile(sys.argv[2])
    failed = False
    problems = problems_of(docs, image)
    for problem in problems:
        print("FAIL:", problem)
    failed |= bool(problems)
    print(f"{len(docs)} objects ({', '.join(d['kind'] for d in docs)}), "
          f"{len(problems)} problems")
    for what, word, broken in broken_copies(docs):
        found = problems_of(broken, image)
        said = [p for p in found if word in p]
        if said:
            print(f"ok: {what} is refused: {said[0]}")
        else:
            print(f"FAIL: {what} is not refused ({found})")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
