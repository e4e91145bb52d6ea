"""The RAVEN paper's four baselines and the DRT in plain PyTorch, written from docs/neural-reference.md
(not copied from the reference): the comparison side of bench/neural/compare_pytorch.py. The code
follows the reference's formulation where rave computes differently: WReN builds the 80 pairs per
candidate explicitly, the DRT runs per panel. Runs on the torch of .venv (requirements.txt)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

PANELS = 16


def conv_stack(cin, width):
    layers = []
    for i in range(4):
        layers += [nn.Conv2d(cin if i == 0 else width, width, 3, stride=2), nn.BatchNorm2d(width), nn.ReLU()]
    return nn.Sequential(*layers)


class TreeNet(nn.Module):
    """docs/neural-reference.md, the DRT: the maximal tree over 6 label rows, right branch times the indicator."""

    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(300, 300)
        self.leaf, self.middle = nn.Linear(300 + dim, dim), nn.Linear(300 + dim, dim)
        self.merge, self.root = nn.Linear(300 + dim, dim), nn.Linear(300 + dim, dim)

    def forward(self, x, emb, ind):  # x (B, P, D), emb (B, 6, 300), ind (B)
        p = x.shape[1]
        e = self.proj(emb).unsqueeze(1).expand(-1, p, -1, -1)
        cat = lambda i, f: torch.cat([e[:, :, i], f], -1)
        left = F.relu(self.middle(cat(2, F.relu(self.leaf(cat(3, x))))))
        right = F.relu(self.middle(cat(4, F.relu(self.leaf(cat(5, x)))))) * ind.view(-1, 1, 1)
        s = F.relu(self.merge(cat(1, left + right)))
        return F.relu(self.root(cat(0, s)))


class CnnMlp(nn.Module):
    def __init__(self, drt):
        super().__init__()
        self.conv = conv_stack(PANELS, 32)
        self.tree = TreeNet(512) if drt else None
        self.fc1, self.fc2, self.drop = nn.Linear(512, 512), nn.Linear(512, 8), nn.Dropout(0.5)

    def forward(self, x, emb, ind):
        f = self.conv(x).flatten(1).unsqueeze(1)
        if self.tree is not None:
            f = f + self.tree(f, emb, ind)
        return self.fc2(self.drop(F.relu(self.fc1(f.squeeze(1))))), None, None


class BasicBlock(nn.Module):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1, self.bn1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout)
        self.conv2, self.bn2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout)
        self.down = None
        if stride != 1 or cin != cout:
            self.down = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        y = self.bn2(self.conv2(F.relu(self.bn1(self.conv1(x)))))
        return F.relu(y + (x if self.down is None else self.down(x)))


class ResNet18Mlp(nn.Module):
    """torchvision's ResNet-18 with a 16-channel conv1 (docs/neural-reference.md), head 512 -> 512 -> 38."""

    def __init__(self, drt):
        super().__init__()
        self.conv1, self.bn1 = nn.Conv2d(PANELS, 64, 7, 2, 3, bias=False), nn.BatchNorm2d(64)
        stages, cin = [], 64
        for cout, stride in [(64, 1), (128, 2), (256, 2), (512, 2)]:
            stages += [BasicBlock(cin, cout, stride), BasicBlock(cout, cout, 1)]
            cin = cout
        self.layers = nn.Sequential(*stages)
        self.tree = TreeNet(512) if drt else None
        self.fc1, self.fc2, self.drop = nn.Linear(512, 512), nn.Linear(512, 38), nn.Dropout(0.5)

    def forward(self, x, emb, ind):
        y = F.max_pool2d(F.relu(self.bn1(self.conv1(x))), 3, 2, 1)
        f = F.adaptive_avg_pool2d(self.layers(y), 1).flatten(1).unsqueeze(1)
        if self.tree is not None:
            f = f + self.tree(f, emb, ind)
        out = self.fc2(self.drop(F.relu(self.fc1(f.squeeze(1)))))
        return out[:, :8], out[:, 8:17], out[:, 17:]


class CnnLstm(nn.Module):
    def __init__(self, drt):
        super().__init__()
        self.conv = conv_stack(1, 16)
        self.tree = TreeNet(256) if drt else None
        self.lstm, self.fc = nn.LSTM(256, 96, batch_first=True), nn.Linear(96, 8)

    def forward(self, x, emb, ind):
        b, _, s, _ = x.shape
        f = self.conv(x.view(b * PANELS, 1, s, s)).view(b, PANELS, -1)
        if self.tree is not None:
            f = f + self.tree(f, emb, ind)
        return self.fc(self.lstm(f)[0][:, -1]), None, None


class WReN(nn.Module):
    """Fen9/WReN adapted to RAVEN (docs/neural-reference.md): tags, 80 explicit pairs per candidate, 9 meta bits."""

    def __init__(self, drt):
        super().__init__()
        self.conv = conv_stack(1, 32)
        self.proj = nn.Linear(512 + 9, 256)
        self.tree = TreeNet(256) if drt else None
        self.g = nn.Sequential(nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(),
                               nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 256), nn.ReLU())
        self.f = nn.Sequential(nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Dropout(0.5),
                               nn.Linear(256, 10))

    def forward(self, x, emb, ind):
        b, _, s, _ = x.shape
        f = self.conv(x.view(b * PANELS, 1, s, s)).view(b, PANELS, -1)
        tags = torch.zeros(PANELS, 9, device=x.device)
        for i in range(PANELS):
            tags[i, min(i, 8)] = 1
        f = self.proj(torch.cat([f, tags.expand(b, -1, -1)], 2))
        if self.tree is not None:
            f = f + self.tree(f, emb, ind)
        ctx, answers = f[:, :8], f[:, 8:]
        pairs = []
        for c in range(8):
            a = answers[:, c:c + 1]
            cc = torch.cat([ctx.unsqueeze(2).expand(-1, -1, 8, -1), ctx.unsqueeze(1).expand(-1, 8, -1, -1)], 3)
            pairs.append(torch.cat([cc.reshape(b, 64, 512), torch.cat([ctx, a.expand(-1, 8, -1)], 2),
                                    torch.cat([a.expand(-1, 8, -1), ctx], 2)], 1))
        g = self.g(torch.stack(pairs, 1)).sum(2)  # (B, 8, 256)
        out = self.f(g)
        return out[:, :, 9], out[:, :, :9].sum(1), None


MODELS = {"cnn": CnnMlp, "resnet": ResNet18Mlp, "lstm": CnnLstm, "wren": WReN}


def make_step(model_name, drt, size, batch, device="cpu", precision="fp32"):
    """A closure making one training step (zero_grad, forward, loss, backward, Adam) on a fixed batch;
    on CUDA it returns when the device has finished; bf16 runs forward and loss under autocast."""
    torch.manual_seed(1)
    dev = torch.device(device)
    model = MODELS[model_name](drt).to(dev)
    adam = torch.optim.Adam(model.parameters(), lr=1e-4, betas=(0.9, 0.999), eps=1e-8)
    x = torch.randint(0, 256, (batch, PANELS, size, size)).float().to(dev)
    emb, ind = torch.randn(batch, 6, 300).to(dev), torch.ones(batch).to(dev)
    target = torch.randint(0, 8, (batch,)).to(dev)
    rules, nodes = torch.randint(0, 2, (batch, 9)).float().to(dev), torch.randint(0, 2, (batch, 21)).float().to(dev)
    alpha, beta = {"resnet": (1.0, 1.0), "wren": (0.0, 10.0)}.get(model_name, (0.0, 0.0))
    if dev.type == "cuda":
        torch.backends.cudnn.benchmark = True  # as rave on CUDA

    def step():
        adam.zero_grad(set_to_none=True)  # as rave: backward writes the gradients, not adds
        with torch.autocast(dev.type, dtype=torch.bfloat16, enabled=precision == "bf16"):
            answer, rule_logits, node_logits = model(x, emb, ind)
            loss = F.cross_entropy(answer, target)
            if beta:
                loss = loss + beta * F.binary_cross_entropy_with_logits(rule_logits, rules)
            if alpha:
                loss = loss + alpha * F.binary_cross_entropy_with_logits(node_logits, nodes)
        loss.backward()
        adam.step()
        if dev.type == "cuda":
            torch.cuda.synchronize(dev)

    model.train()
    return step
