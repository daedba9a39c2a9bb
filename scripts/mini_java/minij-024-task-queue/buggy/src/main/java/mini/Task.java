package mini;

/** A unit of work with a priority (higher runs first). */
public final class Task {
    private final String name;
    private final int priority;

    public Task(String name, int priority) {
        this.name = name;
        this.priority = priority;
    }

    public String name() {
        return name;
    }

    public int priority() {
        return priority;
    }
}
