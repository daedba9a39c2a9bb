package mini;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.util.Arrays;
import org.junit.Test;

public class TodoShellHiddenTest {
    private static TodoShell shellWith(String... items) {
        TodoShell shell = new TodoShell();
        for (String item : items) {
            shell.execute("add " + item);
        }
        return shell;
    }

    @Test
    public void listAfterAdding() {
        TodoShell shell = shellWith("buy milk", "walk the dog");
        assertEquals("buy milk, walk the dog", shell.execute("  list  "));
    }

    @Test
    public void emptyList() {
        assertEquals("nothing to do", new TodoShell().execute("LIST"));
    }

    @Test
    public void finishAnItem() {
        TodoShell shell = shellWith("buy milk", "walk the dog");
        assertEquals("done: walk the dog", shell.execute("done 2"));
        assertEquals("buy milk", shell.execute("list "));
        assertEquals(Arrays.asList("walk the dog"), shell.finishedItems());
    }

    @Test
    public void finishAMissingItem() {
        TodoShell shell = shellWith("buy milk");
        assertEquals("no such item: 3", shell.execute("done 3"));
        assertEquals("not a number: first", shell.execute("done first"));
    }

    @Test
    public void quitInAnyCase() {
        TodoShell shell = new TodoShell();
        assertTrue(shell.isRunning());
        assertEquals("bye", shell.execute("Quit"));
        assertFalse(shell.isRunning());
    }

    @Test
    public void addInCapitals() {
        assertEquals("added #1", new TodoShell().execute("ADD water the plants"));
    }
}
