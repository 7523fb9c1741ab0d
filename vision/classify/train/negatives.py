"""Crops that are not a tile face, for training the network to place them away from every face.

Everything here is drawn procedurally (no outside data), except patches cut from the training
photos themselves (pieces of a tile, never a whole one). The Go side draws its own, different
non-tile crops for measuring (vision/synth/nontile.go), and the eval also uses real photos of other
things that training never sees, so what is measured is not what was trained on.
"""
import cv2
import numpy as np

W, H = 120, 160


def _colour(rng, sat=(0, 255), val=(20, 240)):
    hsv = np.uint8([[[rng.randrange(180), rng.randint(*sat), rng.randint(*val)]]])
    return [int(x) for x in cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0]]


def _noise(rng, scale):
    n = np.random.default_rng(rng.randrange(1 << 30)).normal(0, 1, (H // scale + 2, W // scale + 2)).astype(np.float32)
    return cv2.resize(n, (W, H), interpolation=cv2.INTER_CUBIC)


def felt(rng):
    base = np.float32(_colour(rng, (40, 255), (30, 200)))
    im = np.ones((H, W, 3), np.float32) * base
    im += _noise(rng, rng.choice([2, 4, 8]))[..., None] * rng.uniform(3, 20)
    return im


def wood(rng):
    base = np.float32(_colour(rng, (60, 200), (60, 220)))
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    a = rng.uniform(0, np.pi)
    t = xx * np.cos(a) + yy * np.sin(a) + _noise(rng, 16) * rng.uniform(5, 20)
    grain = np.sin(t * rng.uniform(0.15, 0.6)) * 0.5 + 0.5
    return base * (0.7 + 0.4 * grain[..., None])


def cloth(rng):
    c1, c2 = np.float32(_colour(rng)), np.float32(_colour(rng))
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    p = rng.uniform(3, 20)
    kind = rng.randrange(3)
    if kind == 0:
        m = (np.sin(xx / p * np.pi) > 0) ^ (np.sin(yy / p * np.pi) > 0)
    elif kind == 1:
        m = np.sin((xx + yy * rng.uniform(-1, 1)) / p * np.pi) > 0
    else:
        m = (np.sin(xx / p) * np.sin(yy / p)) > 0.2
    im = np.where(m[..., None], c1, c2).astype(np.float32)
    return cv2.GaussianBlur(im, (0, 0), rng.uniform(0.5, 2))


def hand(rng, bg):
    """A hand or arm: skin-coloured rounded blobs and fingers over a background."""
    im = bg.copy()
    skin = np.float32([rng.randint(60, 170), rng.randint(100, 190), rng.randint(150, 240)])
    mask = np.zeros((H, W), np.uint8)
    cx, cy = rng.randint(0, W), rng.randint(H // 3, H)
    cv2.ellipse(mask, (cx, cy), (rng.randint(30, 90), rng.randint(40, 100)), rng.uniform(0, 180), 0, 360, 255, -1)
    for _ in range(rng.randint(0, 5)):
        a = rng.uniform(0, 2 * np.pi)
        l = rng.randint(40, 110)
        cv2.line(mask, (cx, cy), (int(cx + l * np.cos(a)), int(cy + l * np.sin(a))), 255, rng.randint(12, 24))
    m = cv2.GaussianBlur(mask, (0, 0), 2).astype(np.float32)[..., None] / 255
    shade = 0.75 + 0.35 * cv2.GaussianBlur(_noise(rng, 20), (0, 0), 5)[..., None]
    return im * (1 - m) + skin * shade * m


def tile_back(rng, bg):
    """A face-down tile: a coloured back, often with an ivory edge, sometimes a pattern."""
    im = bg.copy()
    m = rng.randint(0, 14)
    col = np.float32(_colour(rng, (80, 255), (60, 240)))
    edge = np.float32([rng.randint(200, 250)] * 3)
    cv2.rectangle(im, (m, m), (W - m, H - m), edge.tolist(), -1)
    e = rng.randint(3, 12)
    cv2.rectangle(im, (m + e, m + e), (W - m - e, H - m - e), col.tolist(), -1)
    if rng.random() < 0.4:
        for _ in range(rng.randint(3, 20)):
            cv2.circle(im, (rng.randint(m, W - m), rng.randint(m, H - m)), rng.randint(2, 8), _colour(rng), -1)
    return im


def blank_front(rng, bg):
    """A tile face with nothing on it (the front of a blank), not one of the faces."""
    im = bg.copy()
    m = rng.randint(0, 12)
    ivory = np.float32([rng.randint(190, 245), rng.randint(200, 250), rng.randint(205, 255)])
    cv2.rectangle(im, (m, m), (W - m, H - m), ivory.tolist(), -1)
    return im


def shadow(rng, bg):
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    a = rng.uniform(0, 2 * np.pi)
    t = ((xx - W / 2) * np.cos(a) + (yy - H / 2) * np.sin(a)) / W
    s = 1 - rng.uniform(0.3, 0.8) / (1 + np.exp(-t * rng.uniform(5, 30)))
    return bg * s[..., None]


def shapes(rng, bg):
    """Things that are not tiles: lines, circles, letters of random colours."""
    im = bg.copy()
    for _ in range(rng.randint(1, 8)):
        k = rng.randrange(3)
        c = _colour(rng)
        p = (rng.randint(0, W), rng.randint(0, H))
        if k == 0:
            cv2.line(im, p, (rng.randint(0, W), rng.randint(0, H)), c, rng.randint(1, 8))
        elif k == 1:
            cv2.circle(im, p, rng.randint(5, 50), c, rng.choice([-1, 2, 4]))
        else:
            txt = "".join(chr(rng.randint(65, 90)) for _ in range(rng.randint(1, 4)))
            # drawn on an 8-bit mask: newer OpenCV draws text on 8-bit images only
            mask = np.zeros((H, W), np.uint8)
            cv2.putText(mask, txt, p, rng.randrange(8), rng.uniform(0.5, 2), 255, rng.randint(1, 4))
            im[mask > 0] = c
    return im


def patch(rng, pool):
    """A piece of a tile (a third to half of it) blown up to a whole crop."""
    im = pool[rng.randrange(len(pool))]
    h, w = im.shape[:2]
    s = rng.uniform(0.3, 0.5)
    pw, ph = int(w * s), int(h * s)
    x, y = rng.randint(0, w - pw), rng.randint(0, h - ph)
    return cv2.resize(im[y:y + ph, x:x + pw], (W, H)).astype(np.float32)


def two_halves(rng, pool, bg):
    """The gap between two tiles: half of one and half of another with table between."""
    a, b = pool[rng.randrange(len(pool))], pool[rng.randrange(len(pool))]
    im = bg.copy()
    g = rng.randint(4, 30)
    half = (W - g) // 2
    im[:, :half] = cv2.resize(a, (W, H))[:, W - half:]
    im[:, W - half:] = cv2.resize(b, (W, H))[:, :half]
    return im


def negative(rng, pool):
    """One non-tile crop, W x H BGR uint8."""
    bgs = [felt, wood, cloth]
    bg = bgs[rng.randrange(3)](rng)
    k = rng.randrange(10)
    if k <= 2:
        im = bg
    elif k == 3:
        im = hand(rng, bg)
    elif k == 4:
        im = tile_back(rng, bg)
    elif k == 5:
        im = blank_front(rng, bg)
    elif k == 6:
        im = shadow(rng, bg)
    elif k == 7:
        im = shapes(rng, bg)
    elif k == 8:
        im = patch(rng, pool)
    else:
        im = two_halves(rng, pool, bg)
    if rng.random() < 0.3:
        im = shadow(rng, im)
    return np.clip(im, 0, 255).astype(np.uint8)
