package mini;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A tiny to-do shell: one command line in, one reply out. */
public final class TodoShell {
    private final List<String> open = new ArrayList<>();
    private final List<String> finished = new ArrayList<>();
    private boolean running = true;

    /** Runs one command line and returns the reply shown to the user. */
    public String execute(String line) {
        String[] parts = line.trim().split("\\s+", 2);
        String command = parts[0].toLowerCase(Locale.ROOT);
        String argument = parts.length > 1 ? parts[1] : "";
        if (command == "add") {
            open.add(argument);
            return "added #" + open.size();
        }
        if (command == "done") {
            int n;
            try {
                n = Integer.parseInt(argument);
            } catch (NumberFormatException e) {
                return "not a number: " + argument;
            }
            if (n < 1 || n > open.size()) {
                return "no such item: " + n;
            }
            String item = open.remove(n - 1);
            finished.add(item);
            return "done: " + item;
        }
        if (command == "list") {
            return open.isEmpty() ? "nothing to do" : String.join(", ", open);
        }
        if (command == "quit") {
            running = false;
            return "bye";
        }
        return "unknown command: " + command;
    }

    public boolean isRunning() {
        return running;
    }

    public List<String> finishedItems() {
        return new ArrayList<>(finished);
    }
}
