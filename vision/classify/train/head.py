#!/usr/bin/python3
"""Give a trained tile model a "faces" output: which kind of face the network takes a crop for.

The embedding network (train.py) stays as it is, weight for weight: this script reads its ONNX
file, embeds augmented copies of the training crops with it (train.py's changes: cut, light,
blur, noise), fits a cosine classifier over the 36 faces and "none" on those frozen embeddings
(CosFace, as train.py), and writes the model again with one more output, "faces": the embedding's
dot product with each face class's unit weight, in engine/tile's order (train.FACE_ORDER).
Divided by the embedding's length, the crop's cosine to each kind of face. vision/classify uses
it to answer "unknown" when the network takes a crop for a kind of face the table never enrolled,
rather than naming the enrolled face nearest it.

  --model FILE     the ONNX model to extend (embedding and none outputs)
  --photos DIR --list CSV --faces DIR --sets DIR --train-sets B,C,...: what to fit on, as train.py
  --test-sets X,Y  optional: sets of --sets to report the head's top-1 on (never fitted on)
  --out FILE       the extended model

Debian packages only: python3-torch, python3-opencv, python3-numpy, python3-onnx.
"""
import argparse
import multiprocessing
import time

import cv2
import numpy as np
import onnx
import torch
import torch.nn as nn
import torch.nn.functional as F
from onnx import helper, numpy_helper

import train


class Frozen(nn.Module):
    """The exported network rebuilt from its ONNX weights (batch norm already folded into the
    convolutions), to embed with."""

    def __init__(self, model):
        super().__init__()
        init = {t.name: torch.from_numpy(numpy_helper.to_array(t).copy()) for t in model.graph.initializer}
        consts = {}
        for n in model.graph.node:
            if n.op_type == "Constant":
                consts[n.output[0]] = float(numpy_helper.to_array(n.attribute[0].t))
        layers = []
        self.sub, self.mul = 0.0, 1.0
        for n in model.graph.node:
            if n.op_type == "Sub":
                self.sub = consts[n.input[1]]
            elif n.op_type == "Mul":
                self.mul = consts[n.input[1]]
            elif n.op_type == "Conv":
                w, b = init[n.input[1]], init[n.input[2]]
                c = nn.Conv2d(w.shape[1], w.shape[0], w.shape[2], padding=w.shape[2] // 2)
                c.weight.data, c.bias.data = w, b
                layers.append(c)
            elif n.op_type == "Relu":
                layers.append(nn.ReLU())
            elif n.op_type == "MaxPool":
                layers.append(nn.MaxPool2d(2))
            elif n.op_type == "Gemm":
                self.embed = nn.Linear(init[n.input[1]].shape[1], init[n.input[1]].shape[0])
                self.embed.weight.data, self.embed.bias.data = init[n.input[1]], init[n.input[2]]
            elif n.op_type == "MatMul" and n.output[0] == "none":
                self.none = init[n.input[1]][:, 0]
        self.features = nn.Sequential(*layers)

    def forward(self, x):
        x = (x - self.sub) * self.mul
        return self.embed(torch.flatten(self.features(x), 1))


def embed_all(net, items, copies, seed, workers, batch=128):
    """Embeds copies augmented versions of each (image index, class, art) item of train.IMAGES; -1
    stands for a fresh non-tile crop. Batches are drawn as train.py draws them (train.make_batch,
    seeded per batch), in workers processes when there are any."""
    work = [(i, c, art) for i, c, art in items for _ in range(copies)]
    chunks = [work[i:i + batch] for i in range(0, len(work), batch)]
    jobs = [(seed * 1000003 + k, [(i, art) for i, _, art in chunk]) for k, chunk in enumerate(chunks)]
    drawn = workers.imap(train.make_batch, jobs) if workers else map(train.make_batch, jobs)
    t0 = time.time()
    xs = []
    for xb in drawn:
        with torch.no_grad():
            xs.append(F.normalize(net(torch.from_numpy(np.ascontiguousarray(xb, dtype=np.float32))), dim=1))
    print(f"head: embedded {len(work)} crops in {time.time() - t0:.0f} s", flush=True)
    return torch.cat(xs), torch.tensor([c for _, c, _ in work])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", help="the ONNX model to fit on and extend")
    ap.add_argument("--weights", help="instead of --model: the weights train.py --weights-out wrote (fit only)")
    ap.add_argument("--faces-out", help="also write the faces weights (numpy .npz), for --attach")
    ap.add_argument("--attach", help="fit nothing: give --model the faces weights --faces-out wrote, into --out")
    ap.add_argument("--photos")
    ap.add_argument("--list")
    ap.add_argument("--faces")
    ap.add_argument("--sets")
    ap.add_argument("--train-sets", default="")
    ap.add_argument("--test-sets", default="")
    ap.add_argument("--photo-copies", type=int, default=16)
    ap.add_argument("--set-copies", type=int, default=8)
    ap.add_argument("--art-copies", type=int, default=24)
    ap.add_argument("--negatives", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--workers", type=int, default=0, help="processes that augment crops (0: this one)")
    ap.add_argument("--out")
    a = ap.parse_args()
    if a.attach:
        if not (a.model and a.out):
            raise SystemExit("head: --attach needs --model and --out")
        model = onnx.load(a.model)
        check_outputs(model, a.model)
        write(model, np.load(a.attach)["faces"], a.out)
        return
    if not (a.photos and a.list and a.faces) or bool(a.model) == bool(a.weights) or not (a.out or a.faces_out):
        raise SystemExit("head: --photos, --list, --faces, one of --model and --weights, and --out or --faces-out are needed")
    if a.out and not a.model:
        raise SystemExit("head: --out extends --model; with --weights give --faces-out")
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    np.random.seed(a.seed)

    if a.model:
        model = onnx.load(a.model)
        check_outputs(model, a.model)
        net = Frozen(model).eval()
    else:
        net, _ = train.load_weights(a.weights)
    photos = train.read_list(a.photos, a.list)
    names = [n.strip() for n in a.train_sets.split(",") if n.strip()]
    sets = train.read_sets(a.sets, names) if a.sets and names else []
    art = [(train.portrait(cv2.imread(f"{a.faces}/{f}.png")), f) for f in train.FACE_ORDER]
    classes = train.FACE_ORDER + ["none"]
    cls = {t: i for i, t in enumerate(classes)}
    train.IMAGES[:] = [im for im, _ in photos] + [im for im, _ in sets] + [im for im, _ in art]
    train.POOL[:] = train.IMAGES
    print(f"head: {len(photos)} photos, {len(sets)} crops of sets {','.join(names) or 'none'}, {len(art)} face images", flush=True)

    index = iter(range(len(train.IMAGES)))
    parts = [([(next(index), cls[t], False) for _, t in photos], a.photo_copies), ([(next(index), cls[t], False) for _, t in sets], a.set_copies),
             ([(next(index), cls[t], True) for _, t in art], a.art_copies), ([(-1, cls["none"], False)], a.negatives)]
    workers = multiprocessing.get_context("fork").Pool(a.workers) if a.workers > 0 else None
    xs, ys = zip(*[embed_all(net, items, copies, a.seed * 10 + k, workers) for k, (items, copies) in enumerate(parts) if items])
    if workers:
        workers.close()
    x, y = torch.cat(xs), torch.cat(ys)

    # prototypes to start from: each class's mean embedding
    w = torch.stack([F.normalize(x[y == c].mean(0), dim=0) for c in range(len(classes))]).clone().requires_grad_(True)
    opt = torch.optim.Adam([w], lr=0.01)
    scale, margin = 16.0, 0.25
    for step in range(400):
        cos = x @ F.normalize(w, dim=1).t()
        loss = F.cross_entropy(scale * (cos - margin * F.one_hot(y, len(classes))), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        wn = F.normalize(w, dim=1)
        print(f"head: loss {loss.item():.3f}, fitted top-1 {((x @ wn.t()).argmax(1) == y).float().mean():.4f}", flush=True)

    tests = [n.strip() for n in a.test_sets.split(",") if n.strip()]
    if tests:
        held = train.read_sets(a.sets, tests)
        with torch.no_grad():
            e = F.normalize(net(torch.stack([train.tensor(train.plain(im)) for im, _ in held])), dim=1)
            got = (e @ wn[:36].t()).argmax(1).tolist()
        right = sum(train.FACE_ORDER[g] == t for g, (_, t) in zip(got, held))
        print(f"head: sets {','.join(tests)} (never fitted on): top-1 {right / len(held):.4f} of {len(held)}", flush=True)

    faces = wn[:36].t().contiguous().numpy().astype(np.float32)
    if a.faces_out:
        np.savez(a.faces_out, faces=faces)
        print(f"head: wrote {a.faces_out}", flush=True)
    if a.out:
        write(model, faces, a.out)


def check_outputs(model, path):
    if [o.name for o in model.graph.output] != ["embedding", "none"]:
        raise SystemExit(f"head: {path} has outputs {[o.name for o in model.graph.output]}, want embedding and none (as train.py writes)")


def write(model, faces, path):
    """The model with one more output, faces: the embedding times faces (128 x 36)."""
    g = model.graph
    g.initializer.append(numpy_helper.from_array(faces, "faces.weight"))
    g.node.append(helper.make_node("MatMul", ["embedding", "faces.weight"], ["faces"]))
    g.output.append(helper.make_tensor_value_info("faces", onnx.TensorProto.FLOAT, [None, 36]))
    onnx.checker.check_model(model)
    onnx.save(model, path)
    print(f"head: wrote {path}", flush=True)


if __name__ == "__main__":
    main()
