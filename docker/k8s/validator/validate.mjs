// validate.mjs - schema-checks Kubernetes manifests (docker/k8s/validate.sh
// runs it; `make validate-k8s`).
//
//   node validate.mjs --version 0.2.0 --rendered FILE|-   kustomize output
//   node validate.mjs --version 0.2.0 --kustomization DIR  DIR's files, as
//                                                          listed in its
//                                                          kustomization.yaml
//   node validate.mjs --version 0.2.0 FILE...             plain manifests
//
// Every object is checked against the JSON schema of its apiVersion and
// kind: Kubernetes' own (kubernetes-models), the Prometheus Operator's
// (ServiceMonitor) and the Gateway API's (HTTPRoute); an unknown kind is an
// error. Then the project's own rules: every object carries the
// app.kubernetes.io/* labels with the version of ../../../VERSION, the image
// tag is that version, a container's memory request equals its limit, and
// GRIDSOLVE_WORKERS comes from the CPU limit. Exit status 1 on any error.
import { readFileSync, existsSync, statSync } from "node:fs";
import { join, dirname } from "node:path";
import { parseAllDocuments } from "yaml";

const GROUPS = {
  "monitoring.coreos.com": "@kubernetes-models/prometheus-operator",
  "gateway.networking.k8s.io": "@kubernetes-models/gateway-api",
};

let errors = 0;
let checked = 0;
const fail = (where, msg) => {
  errors++;
  console.error(`validate-k8s: ${where}: ${msg}`);
};

function parseYaml(text, where) {
  const out = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length) {
      for (const e of doc.errors) fail(where, `YAML: ${e.message}`);
      continue;
    }
    const obj = doc.toJS();
    if (obj !== null && obj !== undefined) out.push(obj);
  }
  return out;
}

async function modelFor(apiVersion, kind) {
  if (typeof apiVersion !== "string" || typeof kind !== "string")
    return null;
  const slash = apiVersion.indexOf("/");
  const group = slash < 0 ? "" : apiVersion.slice(0, slash);
  const pkg = GROUPS[group] ?? "kubernetes-models";
  try {
    const mod = await import(`${pkg}/${apiVersion}`);
    return mod[kind] ?? null;
  } catch {
    return null;
  }
}

function schemaErrors(e) {
  // kubernetes-models throws a ValidationError whose message lists every
  // failed keyword with its instance path.
  return String(e?.message ?? e).split("\n").filter(Boolean);
}

function projectRules(obj, where, version) {
  const labels = obj.metadata?.labels ?? {};
  for (const k of ["name", "instance", "version", "component", "part-of"]) {
    if (!labels[`app.kubernetes.io/${k}`])
      fail(where, `missing label app.kubernetes.io/${k}`);
  }
  if (version && labels["app.kubernetes.io/version"] &&
      labels["app.kubernetes.io/version"] !== version)
    fail(where, `label app.kubernetes.io/version is ` +
                `"${labels["app.kubernetes.io/version"]}", VERSION is "${version}"`);
  const pod = obj.spec?.template?.spec;
  if (!pod) return;
  const tl = obj.spec.template.metadata?.labels ?? {};
  if (version && tl["app.kubernetes.io/version"] !== version)
    fail(where, `pod template label app.kubernetes.io/version is not "${version}"`);
  for (const c of pod.containers ?? []) {
    const cw = `${where} container ${c.name}`;
    const img = String(c.image ?? "");
    if (version && !img.endsWith(`:${version}`))
      fail(cw, `image "${img}" is not tagged ${version}`);
    const req = c.resources?.requests?.memory;
    const lim = c.resources?.limits?.memory;
    if (!lim) fail(cw, "no memory limit");
    else if (String(req) !== String(lim))
      fail(cw, `memory request ${req} differs from its limit ${lim}`);
    const w = (c.env ?? []).find((e) => e.name === "GRIDSOLVE_WORKERS");
    const ref = w?.valueFrom?.resourceFieldRef;
    if (!ref || ref.resource !== "limits.cpu" || String(ref.divisor) !== "1")
      fail(cw, "GRIDSOLVE_WORKERS must come from resourceFieldRef limits.cpu, divisor 1");
  }
}

async function check(obj, where, version) {
  checked++;
  const what = `${where}: ${obj?.kind ?? "?"} ${obj?.metadata?.name ?? "?"}`;
  const Model = await modelFor(obj?.apiVersion, obj?.kind);
  if (!Model) {
    fail(what, `unknown apiVersion/kind ${obj?.apiVersion}/${obj?.kind}`);
    return;
  }
  try {
    new Model(obj).validate();
  } catch (e) {
    for (const line of schemaErrors(e)) fail(what, line);
  }
  if (!obj.metadata?.name) fail(what, "metadata.name is missing");
  projectRules(obj, what, version);
}

// The files a kustomization lists, read without kustomize: every resource
// (file or directory with its own kustomization.yaml) must exist and
// validate, and every generator's source file must exist. The generated
// ConfigMaps themselves are checked in the rendered output.
async function kustomization(dir, version) {
  const kfile = join(dir, "kustomization.yaml");
  if (!existsSync(kfile)) {
    fail(dir, "no kustomization.yaml");
    return;
  }
  const [k] = parseYaml(readFileSync(kfile, "utf8"), kfile);
  if (!k) return;
  if (k.kind !== "Kustomization") fail(kfile, "kind is not Kustomization");
  for (const r of k.resources ?? []) {
    const p = join(dir, r);
    if (!existsSync(p)) fail(kfile, `resource ${r} does not exist`);
    else if (statSync(p).isDirectory()) await kustomization(p, version);
    else for (const o of parseYaml(readFileSync(p, "utf8"), p)) await check(o, p, version);
  }
  for (const g of [...(k.configMapGenerator ?? []), ...(k.secretGenerator ?? [])]) {
    for (const f of [...(g.envs ?? []), ...(g.files ?? [])]) {
      const name = String(f).replace(/^[^=]*=/, "");
      if (!existsSync(join(dir, name)))
        fail(kfile, `generator ${g.name}: file ${name} does not exist`);
    }
  }
  for (const i of k.images ?? []) {
    if (version && i.newTag !== undefined && String(i.newTag) !== version)
      fail(kfile, `images: ${i.name} newTag is "${i.newTag}", VERSION is "${version}"`);
  }
}

const args = process.argv.slice(2);
let version = "";
const files = [];
let mode = "files";
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--version") version = args[++i];
  else if (args[i] === "--rendered") mode = "rendered";
  else if (args[i] === "--kustomization") mode = "kustomization";
  else files.push(args[i]);
}
if (!files.length) {
  console.error("usage: node validate.mjs [--version V] [--rendered|--kustomization] FILE|DIR...");
  process.exit(2);
}
for (const f of files) {
  if (mode === "kustomization") {
    await kustomization(f, version);
  } else {
    const text = readFileSync(f === "-" ? 0 : f, "utf8");
    const objs = parseYaml(text, f === "-" ? "rendered" : f);
    if (mode === "rendered" && !objs.length) fail(f, "no objects rendered");
    for (const o of objs) await check(o, f === "-" ? "rendered" : f, version);
  }
}
const what = mode === "rendered" && files[0] === "-" ? "kubectl kustomize output" : files.join(" ");
console.log(`validate-k8s: ${mode} ${what}: ${checked} objects, ${errors} errors`);
process.exit(errors ? 1 : 0);
