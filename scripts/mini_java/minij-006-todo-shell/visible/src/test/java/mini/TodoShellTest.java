package mini;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class TodoShellTest {
    @Test
    public void addAnItem() {
        TodoShell shell = new TodoShell();
        assertEquals("added #1", shell.execute("add buy milk"));
        assertEquals("added #2", shell.execute("add call the bank"));
    }

    @Test
    public void unknownCommand() {
        assertEquals("unknown command: dance", new TodoShell().execute("dance now"));
    }
}
