#!/usr/bin/env python3
"""train.py: a real PyTorch training loop on synthetic data, for `mlsched profile`.

Trains ResNet-50, ResNet-18 (torchvision) or a Transformer encoder stack with a real
optimizer step, and prints one progress line per iteration in mlsched's progress
protocol:

    mlsched-progress iter=<n> samples=<n> iter_time=<s> batch=<b> mem=<bytes>

Iteration times are measured between CUDA synchronizations. At the end it prints
one line `mlsched-summary {json}` with the median/p10/p90 iteration time and the peak
GPU memory (torch.cuda.max_memory_allocated).

    python3 train.py --model resnet50 --bs 64 --iters 40 --warmup 10 [--amp bf16]

Under `mlsched profile run` (which drops warm-up and stops the job itself):

    mlsched profile run -b 16,32,64 --workload resnet50-224-fp32 -o r50.csv -- \
        python3 train.py --model resnet50 --bs {batch} --iters 100000 --warmup 0
"""
import argparse
import json
import statistics
import time

import torch
import torch.nn as nn


def build(model, bs, args):
    if model in ("resnet50", "resnet18"):
        import torchvision

        net = getattr(torchvision.models, model)(num_classes=1000)
        x = torch.randn(bs, 3, args.image, args.image, device="cuda")
        y = torch.randint(0, 1000, (bs,), device="cuda")
        loss_fn = nn.CrossEntropyLoss()
        return net.cuda(), (lambda: loss_fn(net(x), y))
    if model == "transformer":
        layer = nn.TransformerEncoderLayer(args.hidden, args.heads, 4 * args.hidden,
                                           dropout=0.0, activation="gelu",
                                           batch_first=True)
        net = nn.TransformerEncoder(layer, args.layers).cuda()
        x = torch.randn(bs, args.seq, args.hidden, device="cuda")
        return net, (lambda: net(x).float().pow(2).mean())
    raise SystemExit(f"unknown model {model}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="resnet50")
    ap.add_argument("--bs", type=int, default=32)
    ap.add_argument("--iters", type=int, default=40)
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--amp", default="none", choices=["none", "bf16"])
    ap.add_argument("--image", type=int, default=224)
    ap.add_argument("--hidden", type=int, default=512)
    ap.add_argument("--heads", type=int, default=8)
    ap.add_argument("--layers", type=int, default=6)
    ap.add_argument("--seq", type=int, default=128)
    args = ap.parse_args()
    torch.backends.cudnn.benchmark = True
    net, step_loss = build(args.model, args.bs, args)
    opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
    times = []
    done = 0
    for it in range(args.warmup + args.iters):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        opt.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=torch.bfloat16, enabled=args.amp == "bf16"):
            loss = step_loss()
        loss.backward()
        opt.step()
        torch.cuda.synchronize()
        dt = time.perf_counter() - t0
        done += args.bs
        print(f"mlsched-progress iter={it + 1} samples={done} iter_time={dt:.6f} "
              f"batch={args.bs} mem={torch.cuda.max_memory_allocated()}", flush=True)
        if it >= args.warmup:
            times.append(dt)
    times.sort()
    q = statistics.quantiles(times, n=10)
    print("mlsched-summary " + json.dumps({
        "model": args.model, "bs": args.bs, "amp": args.amp,
        "iter_time_s": statistics.median(times), "p10": q[0], "p90": q[-1],
        "samples_per_s": args.bs / statistics.median(times),
        "mem_bytes": torch.cuda.max_memory_allocated(), "iters": len(times),
        "gpu": torch.cuda.get_device_name(0), "torch": torch.__version__,
        "cuda": torch.version.cuda}), flush=True)


if __name__ == "__main__":
    main()
