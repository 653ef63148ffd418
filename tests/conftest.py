import sys
import warnings
from pathlib import Path

warnings.filterwarnings("ignore", message="First-class function type feature is experimental")
sys.path.insert(0, str(Path(__file__).resolve().parent))

# Every (rules, mode, players) the engine plays: D2.2, D9.1.
ALL_SETUPS = [("full", "individual", 3), ("full", "individual", 4), ("full", "individual", 5),
              ("simplified", "individual", 3), ("simplified", "individual", 4),
              ("simplified", "individual", 5), ("full", "2v2", 4), ("full", "2v3", 5),
              ("full", "2v2+1", 5)]
