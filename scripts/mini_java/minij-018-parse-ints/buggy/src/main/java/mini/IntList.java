package mini;

import java.util.ArrayList;
import java.util.List;

/** Reads lists of integers typed by people. */
public final class IntList {
    /** The integers read, and the entries that were not integers. */
    public static final class Parsed {
        public final List<Integer> numbers;
        public final List<String> rejected;

        Parsed(List<Integer> numbers, List<String> rejected) {
            this.numbers = numbers;
            this.rejected = rejected;
        }
    }

    private IntList() {}

    public static Parsed parse(String text) {
        List<Integer> numbers = new ArrayList<>();
        List<String> rejected = new ArrayList<>();
        for (String part : text.split(",")) {
            String entry = part.trim();
            if (entry.isEmpty()) {
                continue;
            }
            numbers.add(Integer.parseInt(entry));
        }
        return new Parsed(numbers, rejected);
    }

    /** Sum of the integers in {@code text}; rejected entries are ignored. */
    public static long sum(String text) {
        long total = 0;
        for (int n : parse(text).numbers) {
            total += n;
        }
        return total;
    }
}
