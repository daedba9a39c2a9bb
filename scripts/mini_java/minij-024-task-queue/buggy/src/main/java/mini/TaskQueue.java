package mini;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Tasks waiting to run. */
public final class TaskQueue {
    static final Comparator<Task> HIGHEST_FIRST = (a, b) -> b.priority() - a.priority();

    private final List<Task> waiting = new ArrayList<>();

    public void add(Task task) {
        waiting.add(task);
    }

    /** Names of the waiting tasks in the order they will run. */
    public List<String> order() {
        List<Task> sorted = new ArrayList<>(waiting);
        sorted.sort(HIGHEST_FIRST);
        List<String> names = new ArrayList<>();
        for (Task t : sorted) {
            names.add(t.name());
        }
        return names;
    }

    /** Removes and returns the task to run next. */
    public Task poll() {
        if (waiting.isEmpty()) {
            return null;
        }
        Task next = waiting.get(0);
        for (Task t : waiting) {
            if (HIGHEST_FIRST.compare(t, next) < 0) {
                next = t;
            }
        }
        waiting.remove(next);
        return next;
    }
}
