package mini;

import java.util.Map;
import java.util.TreeMap;

/** Letter grades for exam scores. */
public final class Grades {
    private Grades() {}

    /** The letter grade of a score from 0 to 100. */
    public static char letter(int score) {
        if (score < 0 || score > 100) {
            throw new IllegalArgumentException("score out of range: " + score);
        }
        if (score > 90) {
            return 'A';
        }
        if (score > 80) {
            return 'B';
        }
        if (score > 70) {
            return 'C';
        }
        if (score > 60) {
            return 'D';
        }
        return 'F';
    }

    /** How many scores got each letter (letters nobody got are left out). */
    public static Map<Character, Integer> distribution(int[] scores) {
        Map<Character, Integer> counts = new TreeMap<>();
        for (int score : scores) {
            counts.merge(letter(score), 1, Integer::sum);
        }
        return counts;
    }
}
