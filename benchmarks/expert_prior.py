import sys, statistics
from engine.state import Game, Phase, Play, Bid, ChooseTrump, Bury
from engine.ruleset import hongwu
from engine.order import TRUMP_INDEX
from ai_plugins.base import AISettings
from ai_plugins.builtin.basic import BasicAI
rs = hongwu(int(sys.argv[1]))
ws=[]; kit=[]; pts=[]
for h in range(40):
    g = Game.new(rs, seed=900+h)
    ais = [BasicAI(AISettings(seat=s, seed=s)) for s in range(4)]
    while g.phase is not Phase.PLAY:
        s = g.to_act; v = g.view(s)
        if g.phase is Phase.BID:
            a = ais[s].choose_bid(v, v.legal_bid_amounts); g.apply(Bid(s, a or None)); continue
        if g.phase is Phase.TRUMP:
            g.apply(ChooseTrump(s, ais[s].choose_trump(v, "SHCD"))); continue
        if g.phase is Phase.BURY:
            g.apply(Bury(s, tuple(ais[s].choose_bury(v, v.bury_count)))); continue
    ctx = g.ctx; d = g.dealer
    kit.append(sum(1 for c in g.buried if ctx.SUITX[c]==TRUMP_INDEX)); pts.append(sum(c.points for c in g.buried))
    for s in range(4):
        if s == d: continue
        td = sum(1 for c in g.hands[d] if ctx.SUITX[c]==TRUMP_INDEX)
        to = sum(1 for o in range(4) if o not in (s,d) for c in g.hands[o] if ctx.SUITX[c]==TRUMP_INDEX)
        ws.append((td, to))
H = rs.hand_size
td = statistics.fmean(a for a,b in ws); to = statistics.fmean(b for a,b in ws)
print("dealer trumps", td, "other two defenders", to, "-> per-card weight ratio", (td/H)/(to/(2*H)))
print("kitty trumps", statistics.fmean(kit), "kitty points", statistics.fmean(pts))
