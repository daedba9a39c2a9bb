package mini;

import java.util.ArrayList;
import java.util.List;

/** Players and their scores, in the order they were recorded. */
public final class Leaderboard {
    private final List<String> names = new ArrayList<>();
    private final List<Integer> scores = new ArrayList<>();

    public void record(String name, int score) {
        names.add(name);
        scores.add(score);
    }

    /** Position of the highest score; on a tie, the earliest entry. */
    public int indexOfBest() {
        if (scores.isEmpty()) {
            throw new IllegalStateException("no scores yet");
        }
        int best = 0;
        for (int i = 1; i < scores.size(); i++) {
            if (scores.get(i) >= scores.get(best)) {
                best = i;
            }
        }
        return best;
    }

    /** Position of the lowest score; on a tie, the earliest entry. */
    public int indexOfWorst() {
        if (scores.isEmpty()) {
            throw new IllegalStateException("no scores yet");
        }
        int worst = 0;
        for (int i = 1; i < scores.size(); i++) {
            if (scores.get(i) < scores.get(worst)) {
                worst = i;
            }
        }
        return worst;
    }

    public String leader() {
        return names.get(indexOfBest());
    }
}
