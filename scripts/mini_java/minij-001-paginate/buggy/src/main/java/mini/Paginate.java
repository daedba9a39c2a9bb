package mini;

import java.util.ArrayList;
import java.util.List;

/** Splits a list of items into numbered pages. */
public final class Paginate {
    private Paginate() {}

    /** Number of pages needed to show {@code total} items, {@code perPage} at a time. */
    public static int pageCount(int total, int perPage) {
        if (perPage <= 0) {
            throw new IllegalArgumentException("perPage must be positive");
        }
        return (total + perPage - 1) / perPage;
    }

    /** Items on {@code page} (pages are numbered from 1); an empty list past the last page. */
    public static <T> List<T> page(List<T> items, int page, int perPage) {
        if (page < 1) {
            throw new IllegalArgumentException("pages are numbered from 1");
        }
        if (perPage <= 0) {
            throw new IllegalArgumentException("perPage must be positive");
        }
        int start = page * perPage;
        if (start >= items.size()) {
            return new ArrayList<>();
        }
        int end = Math.min(start + perPage, items.size());
        return new ArrayList<>(items.subList(start, end));
    }
}
