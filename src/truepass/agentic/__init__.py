"""What acting in a sandbox is made of, for every solver that acts and for the report: the task
a family gives (``task``), the actions (``tools``), the recorded trajectory (``trajectory``) and
the process metrics of the summary (``metrics``). The agent solver kind (``agent:MODEL``) is
:mod:`truepass.agents`."""
