#!/usr/bin/python3
"""Train the tile embedding network and export it to ONNX (opset 11) for OpenCV 4.6.

Inputs (see README.md in this folder):
  --photos DIR     a crop folder with the photos-dev layout (labels.csv, images/)
  --list CSV       the crops of DIR to train on (labels.csv format): train-photos.csv, the fixed
                   third `siamesed vision split --dir DIR --split 0.3333 --seed 15` prints. Nothing
                   else in DIR is read, so every other photo stays unseen (vision eval --exclude
                   leaves these out of every measurement).
  --faces DIR      one BGR image per face named <tile>.png (1B.png ... J.png), as
                   `siamesed vision art --out DIR` writes them from ../shared/data/tile-art.
  --sets DIR       optional: a crop folder whose labels.csv has a `set` column
                   (../shared/data/photos-sets); with --train-sets, the crops of those sets only are
                   trained on, so that the others stay unseen for `vision eval --sets`.
  --out FILE       the ONNX model.

The network maps a BGR crop (portrait, --size, pixels / 255) to a 128-number embedding. It is
trained as a cosine classifier (CosFace margin) over the faces; the faces' class weights are thrown
away: at the table the recogniser compares embeddings with the table's own enrolled crops. One more
class, "none", takes the non-tile crops negatives.py draws, so that they land away from every face
and the recogniser can answer "unknown"; its weight is kept as a second output ("none": the
embedding's dot product with it), so that a crop like no tile face at all is told as such even
when a poorly enrolled crop lies near it.

Debian packages only: python3-torch (1.13), python3-opencv, python3-numpy. --device cuda and
--workers train on a GPU machine; --weights-out and --from-weights bring the weights back to be
exported here with Debian's torch, as every shipped model was.
"""
import argparse
import csv
import inspect
import multiprocessing
import os
import random
import time

import cv2
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from negatives import negative

W, H = 60, 80  # input size (--size); vision/classify reads it from the model
TIGHT = 1.25  # the tightest cut the augmentation makes, as a scale of the crop (--tight)
EMBED = 128


class Net(nn.Module):
    def __init__(self, classes, width=1.0):
        super().__init__()

        def block(i, o):
            return [nn.Conv2d(i, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True)]

        c = [int(round(n * width)) for n in (16, 32, 64, 128)]
        self.features = nn.Sequential(
            *block(3, c[0]), nn.MaxPool2d(2),  # 40x30 at 60x80
            *block(c[0], c[1]), *block(c[1], c[1]), nn.MaxPool2d(2),  # 20x15
            *block(c[1], c[2]), *block(c[2], c[2]), nn.MaxPool2d(2),  # 10x7
            *block(c[2], c[3]), nn.MaxPool2d(2),  # 5x3
        )
        self.drop = nn.Dropout(0.3)
        self.embed = nn.Linear(c[3] * (H // 16) * (W // 16), EMBED)
        self.weight = nn.Parameter(torch.randn(classes, EMBED) * 0.01)

    def forward(self, x):
        x = (x - 0.5) * 4.0
        x = self.features(x)
        x = torch.flatten(x, 1)
        return self.embed(self.drop(x))


class Export(nn.Module):
    """The network as shipped: the embedding, and its dot product with the "none" class's unit
    weight. Divided by the embedding's length that is the crop's cosine to "none": how much it
    looks like no tile face at all, whatever faces the table enrolled (vision/classify). The
    faces output is added afterwards by head.py."""

    def __init__(self, net, none):
        super().__init__()
        self.net = net
        self.none = nn.Linear(EMBED, 1, bias=False)
        with torch.no_grad():
            self.none.weight.copy_(F.normalize(net.weight[none].detach(), dim=0)[None, :])

    def forward(self, x):
        e = self.net(x)
        return e, self.none(e)


# The faces in the order of engine/tile's Face: the order of head.py's "faces" output.
FACE_ORDER = [f"{n}{s}" for s in "BCD" for n in range(1, 10)] + ["E", "S", "W", "N", "RD", "GD", "WD", "F", "J"]


def read_list(photos, path):
    out = []
    with open(path) as f:
        r = csv.reader(f)
        next(r)
        for row in r:
            im = cv2.imread(os.path.join(photos, "images", row[0]), cv2.IMREAD_COLOR)
            if im is None:
                raise SystemExit(f"train: cannot read {row[0]}")
            out.append((portrait(im), row[1].strip()))
    return out


def read_sets(folder, names):
    """The crops of folder (labels.csv: image,tile,set,...) whose set is one of names."""
    out = []
    with open(os.path.join(folder, "labels.csv")) as f:
        for row in csv.DictReader(f):
            if row["set"].strip() not in names:
                continue
            im = cv2.imread(os.path.join(folder, "images", row["image"]), cv2.IMREAD_COLOR)
            if im is None:
                raise SystemExit(f"train: cannot read {row['image']}")
            out.append((portrait(im), row["tile"].strip()))
    return out


def portrait(im):
    if im.shape[1] > im.shape[0]:
        im = cv2.rotate(im, cv2.ROTATE_90_CLOCKWISE)
    return cv2.resize(im, (120, 160), interpolation=cv2.INTER_AREA)


BACKGROUNDS = [(40, 110, 30), (90, 60, 20), (60, 90, 140), (70, 70, 70), (200, 200, 200), (20, 20, 20), (30, 60, 120)]


def augment(im, rng, art):
    h, w = im.shape[:2]
    if art:
        # ink of another set: thicker or thinner strokes, shifted hues, duller colours
        if rng.random() < 0.3:
            k = np.ones((3, 3), np.uint8)
            im = cv2.erode(im, k) if rng.random() < 0.5 else cv2.dilate(im, k)
    if rng.random() < 0.5:
        im = cv2.rotate(im, cv2.ROTATE_180)
    # crop misalignment and perspective: move each corner
    s = 0.08 if art else 0.05
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    # loose (table around), tight (cut into the face) and off-centre crops, as the extractor's cut
    # lands at a real table
    dx, dy = rng.uniform(-0.13, 0.13) * w, rng.uniform(-0.13, 0.13) * h
    sc = rng.uniform(0.7, TIGHT)
    cx, cy = w / 2, h / 2
    dst = np.float32([[cx + (x - cx) * sc + dx + rng.uniform(-s, s) * w,
                       cy + (y - cy) * sc + dy + rng.uniform(-s, s) * h] for x, y in src])
    M = cv2.getPerspectiveTransform(src, dst)
    bg = BACKGROUNDS[rng.randrange(len(BACKGROUNDS))]
    im = cv2.warpPerspective(im, M, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=bg)
    f = im.astype(np.float32)
    # colour: hue/saturation shift, white balance, brightness, contrast, gamma, uneven light
    if rng.random() < 0.8:
        hsv = cv2.cvtColor(im, cv2.COLOR_BGR2HSV).astype(np.float32)
        hsv[..., 0] = (hsv[..., 0] + rng.uniform(-8, 8)) % 180
        hsv[..., 1] *= rng.uniform(0.5, 1.3)
        f = cv2.cvtColor(np.clip(hsv, 0, 255).astype(np.uint8), cv2.COLOR_HSV2BGR).astype(np.float32)
    if rng.random() < 0.08:
        g = f.mean(axis=2, keepdims=True)
        f = np.repeat(g, 3, axis=2)
    f *= np.float32([rng.uniform(0.8, 1.2) for _ in range(3)])
    f = (f - 128) * rng.uniform(0.7, 1.3) + 128 + rng.uniform(-40, 30)
    if rng.random() < 0.3:
        f *= rng.uniform(0.3, 0.7)  # dim light
    if rng.random() < 0.5:
        gx, gy = rng.uniform(-0.7, 0.7), rng.uniform(-0.7, 0.7)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        light = 1 + gx * (xx / w - 0.5) + gy * (yy / h - 0.5)
        f *= light[..., None]
    f = np.clip(f, 0, 255)
    if rng.random() < 0.3:
        f = 255 * (f / 255) ** rng.uniform(0.7, 1.4)
    im = f.astype(np.uint8)
    small = cv2.resize(im, (W, H), interpolation=cv2.INTER_AREA)
    if rng.random() < 0.4:
        small = cv2.GaussianBlur(small, (0, 0), rng.uniform(0.3, 1.6))
    if rng.random() < 0.2:
        # a coarser camera: down and up again
        k = rng.uniform(0.5, 0.8)
        t = cv2.resize(small, (int(W * k), int(H * k)), interpolation=cv2.INTER_AREA)
        small = cv2.resize(t, (W, H), interpolation=cv2.INTER_LINEAR)
    out = small.astype(np.float32)
    if rng.random() < 0.5:
        out += np.float32(np.random.normal(0, rng.uniform(1, 8), out.shape))
    return np.clip(out, 0, 255) / 255.0


def tensor(im):
    return torch.from_numpy(np.ascontiguousarray(im.transpose(2, 0, 1)))


def plain(im):
    return cv2.resize(im, (W, H), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0


# The images a batch is drawn from, set before the augmenting workers are forked (fork shares them).
IMAGES = []
POOL = []


def make_batch(job):
    """One batch of augmented crops: job is (seed, [(image index or -1 for a fresh non-tile crop,
    artwork?)]). Seeded per batch, so the batches are the same however many workers draw them."""
    seed, specs = job
    rng = random.Random(seed)
    np.random.seed(seed % (1 << 32))
    return np.stack([augment(negative(rng, POOL) if i < 0 else IMAGES[i], rng, isart).transpose(2, 0, 1) for i, isart in specs])


def save_weights(net, path, width, none):
    """The trained network's weights (state dict) and what rebuilds it, for --from-weights and
    head.py --weights: a model trained on another machine is exported here, with the exporter
    every shipped model was written by."""
    arrays = {k: v.detach().cpu().numpy() for k, v in net.state_dict().items()}
    np.savez(path, _width=np.float32(width), _size=np.int32([W, H]), _none=np.int32(none), _classes=np.int32(net.weight.shape[0]), **arrays)


def load_weights(path):
    """The network save_weights wrote, in eval mode, and the index of its "none" class."""
    global W, H
    z = np.load(path)
    W, H = (int(v) for v in z["_size"])
    net = Net(int(z["_classes"]), float(z["_width"]))
    net.load_state_dict({k: torch.from_numpy(z[k]) for k in z.files if not k.startswith("_")})
    return net.eval(), int(z["_none"])


def export(net, none, path):
    dummy = torch.zeros(1, 3, H, W)
    kw = {}
    if "dynamo" in inspect.signature(torch.onnx.export).parameters:
        kw["dynamo"] = False  # the TorchScript exporter, which writes opset 11 as OpenCV 4.6 reads it
    torch.onnx.export(Export(net.cpu().eval(), none), dummy, path, opset_version=11, input_names=["crop"],
                      output_names=["embedding", "none"], do_constant_folding=True, **kw)
    print(f"train: wrote {path} ({os.path.getsize(path)} bytes)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--photos")
    ap.add_argument("--list")
    ap.add_argument("--faces")
    ap.add_argument("--out", help="the ONNX model to write")
    ap.add_argument("--weights-out", help="also write the trained weights (numpy .npz), for --from-weights")
    ap.add_argument("--from-weights", help="train nothing: export the weights --weights-out wrote to --out")
    ap.add_argument("--epochs", type=int, default=40)
    ap.add_argument("--photo-repeats", type=int, default=20, help="augmented copies of each photo per epoch")
    ap.add_argument("--art-repeats", type=int, default=40, help="augmented copies of each face image per epoch")
    ap.add_argument("--negatives", type=int, default=1200, help="non-tile crops per epoch (drawn anew each time)")
    ap.add_argument("--sets", help="optional: a crop folder with a set column (photos-sets)")
    ap.add_argument("--train-sets", default="", help="with --sets: the sets to train on, e.g. C,H")
    ap.add_argument("--set-repeats", type=int, default=4, help="augmented copies of each --sets crop per epoch")
    ap.add_argument("--margin", type=float, default=0.25, help="CosFace margin")
    ap.add_argument("--tight", type=float, default=1.25, help="the tightest cut into the face the augmentation makes (1.25: a quarter)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--workers", type=int, default=0, help="processes that augment batches (0: this one)")
    ap.add_argument("--device", default="cpu", help="torch device to train on, e.g. cuda")
    ap.add_argument("--test-list", help="optional: crops of --photos to report nearest-neighbour top-1 on at the end (never trained on)")
    ap.add_argument("--size", default="60x80", help="the network's input, WxH (portrait); the extractor's crops are 60x80")
    ap.add_argument("--width", type=float, default=1.5, help="channels, times 16, 32, 64, 128")
    a = ap.parse_args()
    global W, H, TIGHT
    if not 0.7 < a.tight <= 2:
        raise SystemExit(f"train: --tight {a.tight}: want a scale above 0.7 (the loosest cut) and at most 2")
    TIGHT = a.tight
    torch.set_num_threads(a.threads)
    if a.from_weights:
        if not a.out:
            raise SystemExit("train: --from-weights needs --out")
        net, none = load_weights(a.from_weights)
        export(net, none, a.out)
        return
    if not (a.photos and a.list and a.faces and (a.out or a.weights_out)):
        raise SystemExit("train: --photos, --list, --faces and --out or --weights-out are needed")
    W, H = (int(v) for v in a.size.split("x"))
    torch.manual_seed(a.seed)
    np.random.seed(a.seed)
    rng = random.Random(a.seed)

    photos = read_list(a.photos, a.list)
    names_wanted = [n.strip() for n in a.train_sets.split(",") if n.strip()]
    sets = read_sets(a.sets, names_wanted) if a.sets and names_wanted else []
    art = []
    for name in sorted(os.listdir(a.faces)):
        if name.endswith(".png"):
            art.append((portrait(cv2.imread(os.path.join(a.faces, name), cv2.IMREAD_COLOR)), name[:-4]))
    faces = sorted({t for _, t in photos} | {t for _, t in art} | {t for _, t in sets})
    # one more class, "none", for every crop that is not a tile face
    names = faces + ["none"]
    cls = {t: i for i, t in enumerate(names)}
    IMAGES[:] = [im for im, _ in photos] + [im for im, _ in sets] + [im for im, _ in art]
    POOL[:] = IMAGES
    labelled = [(i, cls[t], False, a.photo_repeats) for i, (_, t) in enumerate(photos)]
    labelled += [(len(photos) + i, cls[t], False, a.set_repeats) for i, (_, t) in enumerate(sets)]
    labelled += [(len(photos) + len(sets) + i, cls[t], True, a.art_repeats) for i, (_, t) in enumerate(art)]
    print(f"train: {len(photos)} photos, {len(sets)} crops of sets {','.join(names_wanted) or 'none'}, {len(art)} face images, "
          f"{len(faces)} faces, {a.negatives} non-tile crops an epoch, on {a.device}", flush=True)

    device = torch.device(a.device)
    net = Net(len(names), a.width).to(device)
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=5e-4)
    steps_per_epoch = (len(photos) * a.photo_repeats + len(sets) * a.set_repeats + len(art) * a.art_repeats + a.negatives) // 64
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=a.epochs * steps_per_epoch + 1)
    scale, margin = 16.0, a.margin
    workers = multiprocessing.get_context("fork").Pool(a.workers) if a.workers > 0 else None
    for ep in range(a.epochs):
        t0 = time.time()
        items = [(i, c, isart) for i, c, isart, repeats in labelled for _ in range(repeats)]
        items += [(-1, cls["none"], False)] * a.negatives
        rng.shuffle(items)
        batches = [items[b * 64:(b + 1) * 64] for b in range(steps_per_epoch)]
        jobs = [((a.seed * 1000003 + ep) * 10007 + b, [(i, isart) for i, _, isart in batch]) for b, batch in enumerate(batches)]
        drawn = workers.imap(make_batch, jobs, chunksize=2) if workers else map(make_batch, jobs)
        net.train()
        tot, right, n = 0.0, 0, 0
        for batch, xs in zip(batches, drawn):
            x = torch.from_numpy(np.ascontiguousarray(xs, dtype=np.float32)).to(device)
            y = torch.tensor([c for _, c, _ in batch], device=device)
            e = F.normalize(net(x), dim=1)
            cos = e @ F.normalize(net.weight, dim=1).t()
            logits = scale * (cos - margin * F.one_hot(y, len(names)))
            loss = F.cross_entropy(logits, y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tot += loss.item() * len(batch)
            right += (cos.argmax(1) == y).sum().item()
            n += len(batch)
        print(f"epoch {ep + 1}/{a.epochs}: loss {tot / n:.3f}, train top-1 {right / n:.3f}, {time.time() - t0:.0f} s", flush=True)
    if workers:
        workers.close()

    net = net.cpu().eval()
    if a.weights_out:
        save_weights(net, a.weights_out, a.width, cls["none"])
        print(f"train: wrote {a.weights_out}")
    if a.test_list:
        report(net, photos, read_list(a.photos, a.test_list), POOL)
    if a.out:
        export(net, cls["none"], a.out)


def embed(net, ims):
    with torch.no_grad():
        return F.normalize(net(torch.stack([tensor(plain(im)) for im in ims])), dim=1)


def report(net, gallery, test, pool):
    """Nearest enrolled crop (upright or half a turn round), as vision/classify does; and how near
    fresh non-tile crops come to any enrolled crop."""
    g = torch.cat([embed(net, [im for im, _ in gallery]), embed(net, [cv2.rotate(im, cv2.ROTATE_180) for im, _ in gallery])])
    gl = [t for _, t in gallery] * 2
    right = 0
    for rot in (None, cv2.ROTATE_180):
        q = embed(net, [im if rot is None else cv2.rotate(im, rot) for im, _ in test])
        best = (q @ g.t()).argmax(1)
        right += sum(gl[i] == t for i, (_, t) in zip(best.tolist(), test))
    print(f"test: nearest enrolled crop top-1 {right / (2 * len(test)):.4f} over {len(test)} crops x 2 orientations")
    q = embed(net, [im for im, _ in test])
    best = (q @ g.t()).max(1).values.numpy()
    rng = random.Random(12345)
    neg = embed(net, [negative(rng, pool) for _ in range(2000)])
    nb = (neg @ g.t()).max(1).values.numpy()
    print("test: tiles' best similarity percentiles 0.5/1/5/50:", np.percentile(best, [0.5, 1, 5, 50]).round(3))
    print("test: non-tiles' best similarity percentiles 50/95/99/99.9:", np.percentile(nb, [50, 95, 99, 99.9]).round(3))


if __name__ == "__main__":
    main()
