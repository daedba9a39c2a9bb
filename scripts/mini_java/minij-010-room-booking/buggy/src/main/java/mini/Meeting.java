package mini;

/** A meeting from {@code start} (included) to {@code end} (excluded), in minutes of the day. */
public final class Meeting {
    private final String title;
    private final int start;
    private final int end;

    public Meeting(String title, int start, int end) {
        if (start < 0 || end > 24 * 60 || start >= end) {
            throw new IllegalArgumentException("bad meeting time: " + start + "-" + end);
        }
        this.title = title;
        this.start = start;
        this.end = end;
    }

    public String title() {
        return title;
    }

    /** True when the two meetings share at least one minute. */
    public boolean overlaps(Meeting other) {
        return start < other.end || other.start < end;
    }
}
